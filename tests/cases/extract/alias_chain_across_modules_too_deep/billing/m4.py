from .m3 import t3 as t4
