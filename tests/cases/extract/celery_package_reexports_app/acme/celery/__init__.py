"""The package re-exports its app: this rebinds the submodule name ``app`` to the Celery object."""

from .app import app

__all__ = ["app"]
