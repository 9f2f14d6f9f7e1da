"""Payments: capture, void, refund and nightly settlement reconciliation."""
