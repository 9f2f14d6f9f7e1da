"""Settings for the payout worker."""


def configured(app):
    return app
