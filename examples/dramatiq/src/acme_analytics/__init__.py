"""Acme analytics: clickstream ingestion and customer exports."""
