from .m11 import t11 as t12
