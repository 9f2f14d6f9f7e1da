"""The one adapter around YAML libraries' errors: a located sentence for any error they raise.

ruamel.yaml (the YAML 1.2 reader of record) and PyYAML (the YAML 1.1 second opinion) each mark
errors in their own way; the overlay reader and the stub both turn them into a message through
here, so a file gets the same explanation and the same line whichever command read it. The
adapter itself lives in :mod:`pytest_jobledger.readers` (every strict reader shares it, including
those outside the overlay); these are its names as the overlay's modules know them.
"""

from __future__ import annotations

from ..readers import Problem as YamlProblem
from ..readers import describe

__all__ = ["YamlProblem", "describe"]
