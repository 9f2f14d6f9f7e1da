"""Partner integrations.

``make_webhook_replayer`` builds one Celery task per payment provider at import time. The parser
cannot list those tasks without running the code, so the ledger reports the registration inside
the factory as an unsupported pattern instead of guessing.
"""

from celery import shared_task

PROVIDERS = ("stripe", "adyen")


@shared_task(queue="integrations", max_retries=4, default_retry_delay=300)
def sync_partner_catalogue(partner_id: int) -> None:
    """Pull a partner's product feed and upsert it into our catalogue."""
    raise NotImplementedError


def make_webhook_replayer(provider: str):  # type: ignore[no-untyped-def]
    """Build the task that replays a provider's failed webhooks."""

    @shared_task(name=f"integrations.replay_{provider}_webhooks", queue="integrations")
    def replay_webhooks(event_ids: list[str]) -> None:
        raise NotImplementedError

    return replay_webhooks


REPLAYERS = {provider: make_webhook_replayer(provider) for provider in PROVIDERS}
