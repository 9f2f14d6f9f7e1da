"""The Acme shop: checkout, billing and customer notifications."""
