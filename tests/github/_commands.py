"""Read workflow commands the way the GitHub runner does, to check what a reviewer would see."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Command:
    name: str
    properties: dict[str, str] = field(default_factory=dict)
    message: str = ""


def _unescape_data(text: str) -> str:
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def _unescape_property(text: str) -> str:
    return (
        text.replace("%0D", "\r")
        .replace("%0A", "\n")
        .replace("%3A", ":")
        .replace("%2C", ",")
        .replace("%25", "%")
    )


def parse(line: str) -> Command | None:
    """The runner's rule: ``::name props::message``, properties end at the first ``::``."""
    if not line.startswith("::"):
        return None
    end = line.find("::", 2)
    if end < 0:
        return None
    head, message = line[2:end], line[end + 2 :]
    name, _, props = head.partition(" ")
    properties: dict[str, str] = {}
    for pair in props.split(",") if props else []:
        key, sep, value = pair.partition("=")
        if sep:
            properties[key] = _unescape_property(value)
    return Command(name, properties, _unescape_data(message))


def commands(text: str) -> list[Command]:
    """Every command in ``text``, split into lines as the runner splits a log."""
    found = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        command = parse(line)
        if command is not None:
            found.append(command)
    return found


def active_commands(text: str) -> list[Command]:
    """The commands the runner acts on: none between ``::stop-commands::T`` and ``::T::``."""
    active: list[Command] = []
    resume: str | None = None
    for command in commands(text):
        if resume is not None:
            if command.name == resume:
                resume = None
            continue
        if command.name == "stop-commands":
            resume = command.message
            continue
        active.append(command)
    return active
