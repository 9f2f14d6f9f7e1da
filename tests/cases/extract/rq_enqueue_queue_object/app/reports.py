"""Report building."""


def build_report(report_id):
    """Render one report to PDF."""
