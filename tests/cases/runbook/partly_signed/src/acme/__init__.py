"""Acme's billing service."""
