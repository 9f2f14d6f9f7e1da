"""Ledger reconciliation jobs."""

from procrastinate import RetryStrategy

from ledger_jobs.app import app


@app.task(queue="ledger", name="reconcile_account", retry=5, lock="ledger", queueing_lock="reconcile")
def reconcile_account(account_id: int) -> None:
    """Reconcile one account's balance with its entries."""


@app.periodic(cron="*/10 * * * *")
@app.task(retry=RetryStrategy(max_attempts=3, wait=10), pass_context=True)
def close_stale_batches(context, timestamp: int) -> None:
    """Close batches that have stayed open for more than an hour."""


@app.task(retry=True)
def replay_webhooks() -> None:
    """Replay webhooks whose delivery failed."""
