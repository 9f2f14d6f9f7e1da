"""Class-based tasks kept from the Celery 3 days."""

from celery import Celery, Task

app = Celery("billing")


class ReconcileSettlements(Task):
    """Match the provider's settlement file against our ledger."""

    name = "billing.reconcile_settlements"
    queue = "billing"
    max_retries = 2
    soft_time_limit = 900

    def run(self, day):
        pass


class ExportLedger(app.Task):
    """Write the day's ledger rows to the finance bucket."""

    queue = "exports"

    def run(self, day):
        pass


app.register_task(ReconcileSettlements())
app.register_task(ExportLedger)
