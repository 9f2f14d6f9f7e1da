"""Acme's blog."""
