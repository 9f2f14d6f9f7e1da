"""Per-tenant jobs, built at startup on purpose: accepted in the source, with the reason."""

import dramatiq
from celery import Celery

app = Celery("tenants")


class Exporter:
    def __call__(self, tenant_id):
        """Export one tenant's data."""


export = dramatiq.actor(Exporter())  # jobledger: ignore[dynamic-registration] -- one callable per deploy, documented in ops/README


def make_cleanup(tenant):
    @app.task(name=f"cleanup_{tenant}")  # jobledger: ignore -- built per tenant at startup
    def cleanup():
        """Clean one tenant's scratch space."""

    return cleanup


def make_report(tenant):
    @app.task(name=f"report_{tenant}")  # JobLedger: Ignore[Factory-Registration, loop-registration] — per tenant
    def report():
        """Report on one tenant."""

    return report


@app.task(queue="tenants")
def sync_tenants():
    """Sync the tenant list."""
