"""Run the draft command for one job: a fresh process, never a shell, bounded in time and size.

The command is split like a shell would split it (:func:`shlex.split`) and started directly, in
its own process group (POSIX), with the request on stdin. What it prints is data: UTF-8 text of
at most :data:`MAX_OUTPUT_BYTES`, without control characters, stored as it is and never run or
interpreted. A command that hangs is killed with its whole group when the timeout expires; one
that prints too much is killed as soon as it does. Every failure is a :class:`DraftFailed` with a
one-line reason, for this job only.

The program never runs in the project: its working folder is a fresh, empty temporary folder (one
per job, removed afterwards), so nothing of the checkout is on its path by being in the current
folder. A Python interpreter (``python``, ``python3``, ``python3.X``, or a path ending in one) is
also given ``-I`` (isolated mode: no current or script folder on ``sys.path``, no ``PYTHON*``
variables, no user site), so a checkout's ``json/`` package cannot shadow the standard library of
``python3 -m json.tool``. A program named by a relative path (``./bin/model``) is still found
where it was before: relative to the project root.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import tempfile
import threading
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from ..core.text import clip, one_line

#: A purpose draft is a paragraph; anything longer is not one.
MAX_OUTPUT_BYTES = 8 * 1024
DEFAULT_TIMEOUT_S = 30.0
_CHUNK = 4096
_STDERR_TAIL = 2048
#: Line breaks and tabs are text; every other control character (and bidi controls) is refused.
_ALLOWED_CONTROLS = {"\n", "\t"}
_BIDI = {
    "\u061c",
    "\u200e",
    "\u200f",
    *map(chr, range(0x202A, 0x202F)),
    *map(chr, range(0x2066, 0x206A)),
}


#: The names of a Python interpreter, which gets ``-I``: ``python``, ``python3``, ``python3.12``.
_PYTHON = re.compile(r"python(?:3(?:\.\d+)?)?(?:\.exe)?", re.IGNORECASE)


class DraftFailed(Exception):
    """The command gave no usable draft for this job; ``str()`` says why, on one line."""


def run_command(
    argv: Sequence[str],
    payload: bytes,
    *,
    cwd: Path,
    timeout: float = DEFAULT_TIMEOUT_S,
    max_bytes: int = MAX_OUTPUT_BYTES,
) -> str:
    """The draft ``argv`` prints for ``payload`` (stripped text), or :class:`DraftFailed`.

    ``cwd`` is the project root, against which a relative program path is resolved; the program
    itself runs in a fresh scratch folder (see the module's docstring).
    """
    command = isolated(argv, cwd)
    with tempfile.TemporaryDirectory(
        prefix="jobledger-draft-", ignore_cleanup_errors=True
    ) as scratch:
        return _run(command, payload, Path(scratch), timeout, max_bytes)


def isolated(argv: Sequence[str], root: Path) -> list[str]:
    """``argv`` as it is started: a relative program path made absolute against ``root``, and
    ``-I`` after a Python interpreter (unless it is already there)."""
    command = list(argv)
    if not command:
        return command
    program = command[0]
    if os.sep in program or (os.altsep is not None and os.altsep in program):
        command[0] = str(root / program) if not os.path.isabs(program) else program
    name = re.split(r"[\\/]", program)[-1]
    if _PYTHON.fullmatch(name) and "-I" not in command[1:2]:
        command.insert(1, "-I")
    return command


def _run(argv: list[str], payload: bytes, scratch: Path, timeout: float, max_bytes: int) -> str:
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=scratch,
            start_new_session=os.name == "posix",
        )
    except OSError as error:
        raise DraftFailed(f"cannot start {argv[0]!r}: {error.strerror or error}") from None
    output = bytearray()
    errors = bytearray()
    too_much = threading.Event()

    def read_stdout(stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):  # the pipe closed under us
            while chunk := os.read(stream.fileno(), _CHUNK):
                output.extend(chunk)
                if len(output) > max_bytes:
                    too_much.set()
                    _kill(process)
                    return

    def read_stderr(stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            while chunk := os.read(stream.fileno(), _CHUNK):
                errors.extend(chunk)
                del errors[:-_STDERR_TAIL]

    def write_stdin(stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError):  # a command that does not read its stdin
            stream.write(payload)
        with contextlib.suppress(OSError):
            stream.close()

    assert process.stdin is not None
    assert process.stdout is not None
    assert process.stderr is not None
    threads = [
        threading.Thread(target=target, args=(stream,), daemon=True)
        for target, stream in (
            (write_stdin, process.stdin),
            (read_stdout, process.stdout),
            (read_stderr, process.stderr),
        )
    ]
    for thread in threads:
        thread.start()
    timed_out = False
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill(process)
        process.wait()
    finally:
        for thread in threads:
            thread.join(timeout=2.0)  # a grandchild that kept a pipe open is not waited for
        for stream in (process.stdout, process.stderr):
            with contextlib.suppress(OSError):
                stream.close()
    if too_much.is_set():
        raise DraftFailed(f"it printed more than {max_bytes:,} bytes; a draft is a short paragraph")
    if timed_out:
        raise DraftFailed(f"it did not finish within {timeout:g} s and was killed")
    if process.returncode != 0:
        tail = _last_line(bytes(errors))
        detail = f": {tail}" if tail else ""
        raise DraftFailed(f"it exited with status {process.returncode}{detail}")
    return _draft_text(bytes(output))


def _draft_text(raw: bytes) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DraftFailed(f"its output is not UTF-8 (byte {error.start})") from None
    text = text.replace("\r\n", "\n").strip()
    for index, char in enumerate(text):
        if char in _ALLOWED_CONTROLS:
            continue
        if unicodedata.category(char) == "Cc" or char in _BIDI:
            raise DraftFailed(
                f"its output holds the control character {char!r} (at character {index}); a draft "
                "is plain text"
            )
    if not text:
        raise DraftFailed("it printed nothing")
    return text


def _last_line(raw: bytes) -> str:
    lines = [line for line in raw.decode("utf-8", "replace").splitlines() if line.strip()]
    return clip(one_line(lines[-1].strip()), 200) if lines else ""


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kill the command and, on POSIX, every process it started in its group."""
    if process.returncode is not None:  # already reaped: its pid may belong to another process
        return
    with contextlib.suppress(OSError):
        if os.name == "posix":
            os.killpg(process.pid, signal.SIGKILL)
        else:  # pragma: no cover
            process.kill()
