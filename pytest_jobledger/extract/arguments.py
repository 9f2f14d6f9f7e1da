"""Read a registration's arguments with a framework's :class:`Rules` into ledger fields.

Every field ends either with a value the source proves or with ``null`` and a sentence saying why;
every other keyword lands in ``options`` (literal) or in ``unresolved`` as ``options.<name>``, so
nothing a reviewer might need is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import libcst as cst

from ..core.text import clip
from ..ledger.model import RESOLVED_FIELDS, JSONValue
from .frameworks import DELIVERY_KINDS, FIELD_KINDS, Evaluation, Rules
from .records import dotted_name
from .values import Known, Outcome, Unknown, not_literal, source_text

NOT_SET = "not set at registration"

#: At most 18 digits: a longer count is no real timeout, and past 4,300 digits Python refuses to
#: convert the text at all (so it is left a string, reported as not a duration).
_DURATION = re.compile(r"\s*(\d{1,18})\s*([smhd]?)\s*", re.IGNORECASE)
_DURATION_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class Argument:
    """One argument, with the evaluator of the module it is written in (presets may come from
    another module than the registration site)."""

    node: cst.BaseExpression
    scope: Evaluation


@dataclass(frozen=True)
class ParameterDefault:
    """A value that applies when the registration does not set a field, and where it is written:
    a homegrown decorator's parameter default, or an attribute of a Celery ``base=`` class."""

    outcome: Outcome
    source: str


@dataclass
class Reading:
    fields: dict[str, JSONValue] = field(default_factory=dict)
    unresolved: dict[str, str] = field(default_factory=dict)
    options: dict[str, JSONValue] = field(default_factory=dict)
    defaults: dict[str, str] = field(default_factory=dict)
    #: Typed delivery options (:data:`.frameworks.DELIVERY_KINDS`).
    delivery: dict[str, JSONValue] = field(default_factory=dict)
    #: The fields the registration's own arguments set (a wrapper's body may not override them).
    explicit: set[str] = field(default_factory=set)


@dataclass
class CallArguments:
    """Arguments gathered from one or more calls (a preset first, then the site), in order."""

    positional: list[Argument] = field(default_factory=list)
    keywords: dict[str, Argument | Known] = field(default_factory=dict)
    star_at: int | None = None
    star_source: str = ""
    spreads: list[str] = field(default_factory=list)

    def add(self, args: Sequence[cst.Arg], scope: Evaluation) -> None:
        for arg in args:
            if arg.star == "*":
                if self.star_at is None:
                    self.star_at = len(self.positional)
                    self.star_source = source_text(arg.value)
            elif arg.star == "**":
                # Only an inline dict is provable: a named dict can be mutated without rebinding.
                spread = scope.value(arg.value) if isinstance(arg.value, cst.Dict) else None
                if isinstance(spread, Known) and isinstance(spread.value, dict):
                    for key, item in spread.value.items():
                        self.keywords[key] = Known(item)
                else:
                    self.spreads.append(source_text(arg.value))
            elif arg.keyword is not None:
                self.keywords[arg.keyword.value] = Argument(arg.value, scope)
            else:
                self.positional.append(Argument(arg.value, scope))


def read(
    rules: Rules,
    arguments: CallArguments,
    parameter_default: Callable[[str | int], ParameterDefault | None] | None = None,
) -> Reading:
    reading = Reading()
    used_keywords: set[str] = set()
    used_positions: set[int] = set()
    explicit: set[str] = set()
    rule_by_field = {rule.field: rule for rule in rules.fields}
    for name in RESOLVED_FIELDS:
        rule = rule_by_field.get(name)
        outcome: Outcome | None = None
        selectors: list[str | int] = []
        if rule is not None:
            selectors = [*rule.keywords] + ([rule.position] if rule.position is not None else [])
            for keyword in rule.keywords:
                if keyword in arguments.keywords:
                    used_keywords.add(keyword)
                    outcome = _outcome(arguments.keywords[keyword])
                    break
            if outcome is None and rule.position is not None:
                outcome = _positional(arguments, rule.position)
                if outcome is not None and rule.position < len(arguments.positional):
                    used_positions.add(rule.position)
        if outcome is not None:
            explicit.add(name)
            _store(reading, name, _convert(name, outcome, rules), default=False)
            reading.explicit.add(name)
            continue
        if rule is None and name in rules.not_applicable:
            reading.unresolved[name] = rules.not_applicable[name]
            continue
        if arguments.spreads and rule is not None:
            reading.unresolved[name] = f"may be set by **{arguments.spreads[0]}"
            continue
        default = _default(parameter_default, selectors)
        if default is not None:
            _apply_default(reading, name, default, rules)
            continue
        reading.unresolved[name] = rules.not_applicable.get(name, NOT_SET)
    for keyword, hook in rules.hooks.items():
        if keyword not in arguments.keywords:
            continue
        entry = arguments.keywords[keyword]
        if not isinstance(entry, Argument):
            continue
        used_keywords.add(keyword)
        literal = entry.scope.value(entry.node)
        if isinstance(literal, Known):
            reading.options[keyword] = literal.value
        for name, outcome in hook(entry.node, entry.scope).items():
            if name not in explicit:
                _store(reading, name, _convert(name, outcome, rules), default=False)
                reading.explicit.add(name)
    for keyword, entry in sorted(arguments.keywords.items()):
        if keyword not in used_keywords:
            _option(reading, keyword, entry)
    for keyword, key in rules.delivery.items():
        if keyword in arguments.keywords:
            _delivery(reading, key, arguments.keywords[keyword], rules)
    for position, argument in enumerate(arguments.positional):
        if position not in used_positions:
            names = rules.positional_names
            label = names[position] if position < len(names) else f"arg{position}"
            _option(reading, label, argument)
    return reading


def _outcome(entry: Argument | Known) -> Outcome:
    return entry if isinstance(entry, Known) else entry.scope.value(entry.node)


def _positional(arguments: CallArguments, position: int) -> Outcome | None:
    if arguments.star_at is not None and position >= arguments.star_at:
        return Unknown(f"may be set by *{arguments.star_source}")
    if position < len(arguments.positional):
        return _outcome(arguments.positional[position])
    return None


def _default(
    parameter_default: Callable[[str | int], ParameterDefault | None] | None,
    selectors: Sequence[str | int],
) -> ParameterDefault | None:
    if parameter_default is None:
        return None
    for selector in selectors:
        found = parameter_default(selector)
        if found is not None:
            return found
    return None


def _apply_default(reading: Reading, name: str, default: ParameterDefault, rules: Rules) -> None:
    outcome = default.outcome
    if isinstance(outcome, Known) and outcome.value is None:
        reading.unresolved[name] = f"{NOT_SET}; the {default.source} is None"
        return
    if isinstance(outcome, Unknown):
        reading.unresolved[name] = (
            f"{NOT_SET}; the {default.source} is not provable: {outcome.reason}"
        )
        return
    converted = _convert(name, outcome, rules)
    _store(reading, name, converted, default=True)
    if isinstance(converted, Known):
        reading.defaults[name] = default.source


def _store(reading: Reading, name: str, outcome: Outcome, *, default: bool) -> None:
    if isinstance(outcome, Known):
        reading.fields[name] = outcome.value
        reading.unresolved.pop(name, None)
    else:
        reading.fields.pop(name, None)
        reading.unresolved[name] = outcome.reason


def _option(reading: Reading, label: str, entry: Argument | Known) -> None:
    outcome = _outcome(entry)
    if isinstance(outcome, Known):
        reading.options[label] = outcome.value
    elif isinstance(entry, Argument):
        reading.unresolved[f"options.{label}"] = not_literal(entry.node).reason


def _delivery(reading: Reading, key: str, entry: Argument | Known, rules: Rules) -> None:
    """A delivery option as its typed value; a value of the wrong kind is left out, with why
    (a non-literal one already has its reason under ``options.<keyword>``)."""
    kind = DELIVERY_KINDS[key]
    if kind == "names" and isinstance(entry, Argument):
        node = entry.node
        items = node.elements if isinstance(node, (cst.Tuple, cst.List)) else None
        names = [dotted_name(e.value) for e in items] if items is not None else [dotted_name(node)]
        if all(name is not None for name in names):
            reading.delivery[key] = [name for name in names if name is not None]
            return
    outcome = _outcome(entry)
    if not isinstance(outcome, Known):
        return
    value = outcome.value
    typed: JSONValue = None
    if (kind in ("flag", "flag_or_seconds") and isinstance(value, bool)) or (
        kind == "text" and isinstance(value, str)
    ):
        typed = value
    elif kind in ("seconds", "flag_or_seconds") and not isinstance(value, bool):
        typed = _seconds(value, rules)
    if typed is None:
        reading.unresolved[f"delivery.{key}"] = f"expected {_KIND_NAMES[kind]}, found {value!r}"
    else:
        reading.delivery[key] = typed


_KIND_NAMES = {
    "flag": "true or false",
    "names": "a tuple of exception classes",
    "text": "a string",
    "seconds": "a duration in seconds",
    "flag_or_seconds": "true, false or a number of seconds",
}


def _convert(name: str, outcome: Outcome, rules: Rules) -> Outcome:
    if isinstance(outcome, Unknown):
        return outcome
    value = outcome.value
    if value is None:
        return Unknown("set to None at registration")
    kind = FIELD_KINDS[name]
    if kind == "text":
        if isinstance(value, str):
            return outcome
        return Unknown(f"expected a string, found {_shown(value)}")
    if kind == "count":
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return outcome
        return Unknown(f"expected a whole number of retries, found {_shown(value)}")
    seconds = _seconds(value, rules)
    if seconds is None:
        return Unknown(f"expected a duration in {_unit_name(rules)}, found {_shown(value)}")
    return Known(seconds)


def _shown(value: JSONValue) -> str:
    """A found value in a reason, shortened: a reason is one line a person reads."""
    return clip(repr(value), 80)


def _unit_name(rules: Rules) -> str:
    return "milliseconds" if rules.time_unit == "ms" else "seconds"


def _seconds(value: JSONValue, rules: Rules) -> int | float | None:
    if isinstance(value, str) and rules.durations:
        match = _DURATION.fullmatch(value)
        if match is None:
            return None
        return int(match.group(1)) * _DURATION_UNITS[match.group(2).lower()]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        return None
    if rules.time_unit == "ms":
        value = value / 1000
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
