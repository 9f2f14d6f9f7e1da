from .m2 import t2 as t3
