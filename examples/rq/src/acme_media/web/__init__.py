"""The Django admin for the asset library."""
