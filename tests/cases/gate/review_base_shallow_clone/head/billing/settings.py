"""Settings read at run time."""

import os

CAPTURE_LIMIT = int(os.environ.get("CAPTURE_LIMIT", "120"))
