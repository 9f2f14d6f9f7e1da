"""Partner syncs registered in loops."""

from celery import Celery, shared_task

app = Celery("integrations")

REGIONS = ("eu", "us")


def sync_stripe():
    """Pull Stripe payouts."""


def sync_adyen():
    """Pull Adyen payouts."""


for fn in (sync_stripe, sync_adyen):
    app.task(fn, queue="payouts")

for region in REGIONS:

    @shared_task(name="refresh_" + region)
    def refresh_rates():
        """Refresh currency rates for one region."""

attempt = 0
while attempt < 1:
    app.task(sync_stripe, name="sync_stripe_again")
    attempt += 1
