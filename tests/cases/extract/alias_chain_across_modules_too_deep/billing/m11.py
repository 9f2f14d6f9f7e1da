from .m10 import t10 as t11
