"""Product search."""
