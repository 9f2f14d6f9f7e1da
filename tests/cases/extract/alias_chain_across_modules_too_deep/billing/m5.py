from .m4 import t4 as t5
