"""The runbook inside a team's docs build: a MkDocs plugin (:mod:`.mkdocs`) and a Sphinx extension
(:mod:`.sphinx`), both drawn from the one model :func:`.model.runbook_for` gives (:mod:`.model`).

Presenters only: they read the configuration, the ledger and the overlay through the gate, never
import the project, and refuse (fail the build) on exactly what ``jobledger render`` refuses on.
"""
