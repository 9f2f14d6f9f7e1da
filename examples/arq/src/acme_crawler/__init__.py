"""Acme's site-search crawler."""
