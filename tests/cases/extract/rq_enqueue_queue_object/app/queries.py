"""Running a saved query."""


def execute_query(query_id, user_id):
    """Run one saved query and store its result set."""
