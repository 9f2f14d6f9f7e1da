from .m12 import t12 as wire


@wire
def wire_funds():
    """Move the money."""
