"""Acme warehouse: stock levels, reservations and pick lists."""
