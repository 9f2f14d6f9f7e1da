"""A parsed YAML file (the overlay, the owners roster), remembered by its bytes: the next
reading of the same bytes imports no YAML or schema library. Only a file that parsed is
remembered; one with an error is parsed again, so its error is the same located one every time."""

from __future__ import annotations

from typing import TypeVar

from ..core.fingerprint import libraries
from ..project import Config
from .signed import Signed, open_signed, pickled, sha256, unpickled

#: What reading the file takes besides its bytes: an upgrade of any of them is a new memo.
LIBRARIES = ("ruamel.yaml", "yaml", "jsonschema")

T = TypeVar("T")


def _signed(config: Config, kind: str, raw: bytes, display: str) -> Signed | None:
    inputs = {"libraries": libraries(LIBRARIES), "display": display, "bytes": sha256(raw)}
    return open_signed(config, kind, inputs)


def recall(config: Config, kind: str, raw: bytes, display: str, shape: type[T]) -> T | None:
    """What these bytes (the file ``kind``, shown as ``display``) parsed to last time, or
    ``None``: parse them."""
    signed = _signed(config, kind, raw, display)
    payload = signed.read() if signed is not None else None
    if payload is None:
        return None
    value = unpickled(payload)
    return value if isinstance(value, shape) else None


def remember(config: Config, kind: str, raw: bytes, display: str, value: object) -> None:
    signed = _signed(config, kind, raw, display)
    if signed is not None:
        signed.write(pickled(value))
