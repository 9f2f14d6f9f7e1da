"""Ignores that accept nothing: each is itself reported, and the problems they sit on stay."""

from celery import Celery

app = Celery("tenants")
LABEL = "# jobledger: ignore -- in a string, not a comment"


@app.task(queue="tenants")  # jobledger: ignore[factory-registration] -- nothing to accept here
def sync_tenants():
    """Sync the tenant list."""


def make_cleanup(tenant):
    @app.task(name=f"cleanup_{tenant}")  # jobledger: ignore[factory-registration]
    def cleanup():
        """Clean one tenant's scratch space."""

    return cleanup


def make_report(tenant):
    @app.task(name=f"report_{tenant}")  # jobledger: ignore[factory-registraton] -- per tenant
    def report():
        """Report on one tenant."""

    return report


def make_audit(tenant):
    @app.task(name=f"audit_{tenant}")  # jobledger: ignore[loop-registration] -- wrong pattern
    def audit():
        """Audit one tenant."""

    return audit
