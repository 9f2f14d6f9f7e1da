"""Queue names and limits shared by every billing job."""

BILLING_QUEUE = "billing"
CAPTURE_RETRIES = 5
