"""GitHub Actions presenter for the pytest run; filled in by the action work."""
