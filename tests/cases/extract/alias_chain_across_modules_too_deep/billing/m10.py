from .m9 import t9 as t10
