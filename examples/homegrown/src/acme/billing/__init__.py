"""Invoices: capture and receipts."""
