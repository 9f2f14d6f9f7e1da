"""Per-provider replayers built by a factory."""

from celery import shared_task


def make_replayer(provider):
    """Build one provider's replayer."""

    @shared_task(queue="integrations")
    def replay(event_ids):
        pass

    return replay


@shared_task(queue="integrations")
def sync_catalogue(partner_id):
    """Pull a partner's feed."""
