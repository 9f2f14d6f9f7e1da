from .m8 import t8 as t9
