from .m5 import t5 as t6
