"""Job frameworks the parser has no table for: a module that imports one gets a located
``unsupported-framework`` entry at the import (:mod:`..imports`), so their jobs show up as work
instead of as a green gate with jobs unseen.

The list holds libraries whose purpose is to register and run background or scheduled jobs, by
their top-level import name (each documented on its project page): APScheduler (``apscheduler``,
and ``flask_apscheduler``/``django_apscheduler`` built on it), Django Q and Django Q2
(``django_q``), PgQueuer (``pgqueuer``), Hatchet (``hatchet_sdk``), Temporal (``temporalio``),
Prefect (``prefect``), Rocketry (``rocketry``), Remoulade (``remoulade``), Chancy (``chancy``),
Streaq (``streaq``) and schedule (``schedule``). Messaging libraries (kombu, faststream) and
dashboards (rq_dashboard, flower) register no job and are left out on purpose. A module of the
scanned tree with one of these names is the project's own, never reported.
"""

from __future__ import annotations

UNSUPPORTED_MODULES: frozenset[str] = frozenset(
    {
        "apscheduler",
        "flask_apscheduler",
        "django_apscheduler",
        "django_q",
        "pgqueuer",
        "hatchet_sdk",
        "temporalio",
        "prefect",
        "rocketry",
        "remoulade",
        "chancy",
        "streaq",
        "schedule",
    }
)
