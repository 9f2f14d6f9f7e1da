"""Per-provider webhook replayers built by factories."""

from celery import Celery, shared_task

app = Celery("integrations")


def make_replayer(provider):
    """Build the task that replays one provider's failed webhooks."""

    @shared_task(name=f"replay_{provider}", queue="integrations")
    def replay(event_ids):
        pass

    return replay


def replay_all(event_ids):
    """Replay every provider's failed webhooks."""


def register_periodic():
    """Register replay_all when the worker boots."""
    app.task(replay_all, queue="integrations")


@shared_task(queue="integrations")
def sync_partner_catalogue(partner_id):
    """Pull a partner's product feed."""


def replayable(fn):
    """Make ``fn`` a replay job: the registration wraps the decorated function."""

    @shared_task(queue="integrations")
    def runner(*args):
        return fn(*args)

    return runner


@replayable
def replay_stripe(event_ids):
    """Replay Stripe's failed webhooks."""


def make_refunder(provider):
    """A factory whose app is imported in its own body."""
    from integrations.worker import app as local_app

    @local_app.task(queue="refunds")
    def refund(order_id):
        pass

    return refund
