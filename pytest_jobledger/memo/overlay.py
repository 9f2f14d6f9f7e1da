"""The parsed overlay, remembered by its bytes: the next reading of the same bytes imports no
YAML or schema library. Only an overlay that parsed is remembered; one with an error is parsed
again, so its error is the same located one every time."""

from __future__ import annotations

import pickle

from ..core.fingerprint import libraries
from ..overlay.model import Overlay
from ..project import Config
from .signed import Signed, open_signed, sha256

#: What reading an overlay takes besides its bytes: an upgrade of any of them is a new memo.
LIBRARIES = ("ruamel.yaml", "yaml", "jsonschema")


def _signed(config: Config, raw: bytes, display: str) -> Signed | None:
    inputs = {"libraries": libraries(LIBRARIES), "display": display, "overlay": sha256(raw)}
    return open_signed(config, "overlay", inputs)


def recall(config: Config, raw: bytes, display: str) -> Overlay | None:
    """The overlay these bytes parsed to last time, or ``None``: parse them."""
    signed = _signed(config, raw, display)
    payload = signed.read() if signed is not None else None
    if payload is None:
        return None
    try:
        overlay = pickle.loads(payload)
    except Exception:  # a memo of an older shape of the classes: parse again
        return None
    return overlay if isinstance(overlay, Overlay) else None


def remember(config: Config, raw: bytes, display: str, overlay: Overlay) -> None:
    signed = _signed(config, raw, display)
    if signed is not None:
        signed.write(pickle.dumps(overlay, protocol=pickle.HIGHEST_PROTOCOL))
