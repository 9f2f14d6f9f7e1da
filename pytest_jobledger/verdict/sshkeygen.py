"""ssh-keygen, the one place of the package that starts it: the approval's signature check.

An approver signs a plan with the tool everyone already has (``ssh-keygen -Y sign -f KEY -n
jobledger-approval plan.json``, the format git uses for signed commits); this module asks
``ssh-keygen -Y find-principals`` who signed and ``ssh-keygen -Y verify`` whether that principal's
key made the signature over exactly the plan's bytes. No signature code of our own.

Like ``git.py``: a fixed argument list and no shell; the program found on ``PATH``'s absolute
entries only (a ``ssh-keygen`` in the current folder is never run); the environment built, not
inherited (``PATH``, ``HOME`` in a scratch folder, ``LC_ALL=C``: no agent socket, no user
configuration); run from the scratch folder, with a timeout, everything captured. The files it
reads are copies this process wrote into that folder; the plan's bytes go on stdin.
``tests/test_git_boundary.py`` fails on any other module that starts a process.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..programs import base_environment, find_program

#: What a signature over a plan is made for; a signature for anything else does not verify.
NAMESPACE = "jobledger-approval"
#: A hung ssh-keygen must not hang an incident.
TIMEOUT_S = 10.0
PROGRAM = "ssh-keygen"

#: ``<file>:<line>: <complaint>``: ssh-keygen's report of an allowed_signers line it cannot read.
_FILE_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<what>.+)$")


class Unavailable(Exception):
    """ssh-keygen cannot be run at all; ``reason`` says why, for a one-line message."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Done:
    """A finished ssh-keygen: its exit code and its output as text."""

    returncode: int
    stdout: str
    stderr: str

    def complaint(self, file: Path) -> tuple[int, str] | None:
        """The first line of ``file`` ssh-keygen said it could not read, and why."""
        for line in self.stderr.splitlines():
            match = _FILE_LINE.match(line.strip())
            if match and match.group("file") == str(file):
                return int(match.group("line")), match.group("what")
        return None

    @property
    def first_error(self) -> str:
        lines = [line.strip() for line in self.stderr.splitlines() if line.strip()]
        return lines[0] if lines else f"ssh-keygen exited with {self.returncode}"


def program(environ: Mapping[str, str] | None = None) -> str:
    """The absolute path of ssh-keygen on ``PATH``'s absolute entries, or :class:`Unavailable`."""
    found = find_program(PROGRAM, environ)
    if found is None:
        raise Unavailable(
            "ssh-keygen is not installed (or not on PATH); an approval's signature is checked "
            "with OpenSSH's ssh-keygen (8.2 or later): install OpenSSH's client tools"
        )
    return found


def environment(home: Path, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """ssh-keygen's whole environment: ``PATH`` (absolute entries), a scratch ``HOME``, C locale."""
    built = base_environment(home, environ)
    built["LC_ALL"] = "C"
    return built


def run(args: Sequence[str], *, scratch: Path, stdin: bytes = b"") -> Done:
    """``ssh-keygen args`` from ``scratch``, with the built environment and ``stdin``."""
    executable = program()
    try:
        done = subprocess.run(
            [executable, *args],
            cwd=scratch,
            env=environment(scratch),
            input=stdin,
            capture_output=True,
            timeout=TIMEOUT_S,
            check=False,
        )
    except FileNotFoundError as exc:
        raise Unavailable("ssh-keygen is not installed (or not on PATH)") from exc
    except subprocess.TimeoutExpired as exc:
        raise Unavailable(f"ssh-keygen did not answer within {TIMEOUT_S:g} s") from exc
    except (OSError, subprocess.SubprocessError) as exc:
        raise Unavailable(f"ssh-keygen cannot be run: {exc}") from exc
    return Done(
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )


def find_principals(allowed: Path, signature: Path, *, scratch: Path) -> Done:
    """Who ``allowed`` says made ``signature`` (one principal per line of stdout)."""
    return run(["-Y", "find-principals", "-f", str(allowed), "-s", str(signature)], scratch=scratch)


def verify(allowed: Path, principal: str, signature: Path, data: bytes, *, scratch: Path) -> Done:
    """Whether ``principal``'s key in ``allowed`` made ``signature`` over ``data`` (exit 0)."""
    args = ["-Y", "verify", "-f", str(allowed), "-I", principal, "-n", NAMESPACE]
    return run([*args, "-s", str(signature)], scratch=scratch, stdin=data)
