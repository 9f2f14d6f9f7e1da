from .m1 import t1 as t2
