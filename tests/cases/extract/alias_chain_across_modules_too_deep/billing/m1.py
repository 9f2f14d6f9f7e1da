from .m0 import t0 as t1
