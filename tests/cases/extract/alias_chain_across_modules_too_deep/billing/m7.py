from .m6 import t6 as t7
