"""The procrastinate app of the ledger service."""

from procrastinate import App, PsycopgConnector

app = App(connector=PsycopgConnector(), import_paths=["ledger_jobs.tasks"])
