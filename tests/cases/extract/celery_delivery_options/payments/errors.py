"""Gateway errors."""


class GatewayBusy(Exception):
    """The gateway asked us to come back later."""
