"""The reports worker's procrastinate app."""

import procrastinate

app = procrastinate.App(connector=procrastinate.PsycopgConnector())
