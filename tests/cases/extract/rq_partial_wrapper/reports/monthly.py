from reports.queues import report_job


@report_job(result_ttl=86400)
def build_monthly_statement(account_id):
    """Render the monthly statement PDF for an account."""
