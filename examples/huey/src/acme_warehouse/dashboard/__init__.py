"""The Django dashboard the warehouse floor uses."""
