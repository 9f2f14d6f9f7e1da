"""Reads the project's own schedule module: not a job framework."""

import schedule

ON_CALL = schedule.ROTA[0]
