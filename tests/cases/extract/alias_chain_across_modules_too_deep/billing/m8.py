from .m7 import t7 as t8
