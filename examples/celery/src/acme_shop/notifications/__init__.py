"""Customer-facing email."""
