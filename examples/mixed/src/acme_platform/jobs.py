"""``@actor``: the platform's Dramatiq actor with house defaults.

New code uses this instead of ``dramatiq.actor`` so every actor gets three retries unless it says
otherwise. It is configured in ``[tool.jobledger.decorators]`` with ``framework = "dramatiq"``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import dramatiq


def actor(
    queue_name: str = "default", max_retries: int = 3, **options: Any
) -> Callable[[Callable[..., Any]], dramatiq.Actor[Any, Any]]:
    """Register the decorated function as a Dramatiq actor with the platform's defaults."""

    def register(fn: Callable[..., Any]) -> dramatiq.Actor[Any, Any]:
        return dramatiq.actor(fn, queue_name=queue_name, max_retries=max_retries, **options)

    return register
