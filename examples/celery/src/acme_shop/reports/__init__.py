"""Back-office reports."""
