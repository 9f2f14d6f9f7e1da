"""Not a job."""
