"""What a declared wrapper's own body sets: ``def notify(channel, **kwargs)`` whose body calls
``shared_task(queue=f"notify-{channel}", **kwargs)``. The walker keeps keyword-only calls inside
functions (:mod:`.walker`) and the sites skip them (:mod:`.sites`); here they are read for the rows
the wrapper registers.

Only a declared decorator with a ``framework`` is read this way, and only its body's calls to that
framework's own decorators. A keyword the call sets is the field's value only when it is a literal
(no name at all: a name in a wrapper's body may be a parameter or a local the parser does not
follow); anything else is ``null`` with a reason saying it is the wrapper's. A keyword the call
hands on from a wrapper parameter of the same name (``queue=queue``) is the registration's, read as
before. When the registration passes a keyword the wrapper's call also sets, Python refuses the
repeat (``f(queue=a, **{"queue": b})`` is a ``TypeError``) or the wrapper drops it: the field is
``null`` with a reason, never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from ..project import Config
from .arguments import NOT_SET, CallArguments, Reading, read
from .frameworks import Rules
from .matching import Match, match
from .records import ModuleSummary
from .refs import Ref
from .resolve import ProjectIndex
from .values import Outcome, Unknown, evaluate, source_text


@dataclass(frozen=True)
class BodyCall:
    """One call to the framework's decorator in a wrapper's body, and how to read it."""

    callee: str
    line: int
    keywords: tuple[cst.Arg, ...]
    rules: Rules


@dataclass(frozen=True)
class Wrapper:
    """A declared wrapper whose body calls its framework's decorator."""

    qualname: str
    path: str
    params: tuple[str, ...]
    positional: tuple[str, ...]
    kwargs: str | None
    calls: tuple[BodyCall, ...]


def wrapper_of(index: ProjectIndex, config: Config, ref: Ref, found: Match) -> Wrapper | None:
    """The wrapper ``ref`` names, when it is a declared one with a framework whose body calls that
    framework's decorator with keywords; ``None`` otherwise (the row is read as before)."""
    spec, function, module = found.spec, ref.function, ref.module
    if spec is None or spec.framework is None or function is None or module is None:
        return None
    calls = tuple(_body_calls(index, config, module, function.qualpath, spec.framework))
    if not calls:
        return None
    params = function.params
    positional = tuple(p.name.value for p in [*params.posonly_params, *params.params])
    names = [*positional, *(p.name.value for p in params.kwonly_params)]
    star = params.star_arg
    if isinstance(star, cst.Param):
        names.append(star.name.value)
    kwargs = params.star_kwarg.name.value if params.star_kwarg is not None else None
    if kwargs is not None:
        names.append(kwargs)
    return Wrapper(spec.qualname, module.source.rel_path, tuple(names), positional, kwargs, calls)


def _body_calls(
    index: ProjectIndex, config: Config, summary: ModuleSummary, qualpath: str, framework: str
) -> list[BodyCall]:
    """The framework decorator calls in the body of ``qualpath``, in source order, once each."""
    nodes: list[tuple[int, cst.Call]] = []
    for site in summary.calls:
        if site.context.in_function[:1] == (qualpath,) and not isinstance(site.call.func, cst.Call):
            nodes.append((site.line, site.call))
    for deco in summary.decorated:
        if deco.context.in_function[:1] == (qualpath,) and isinstance(deco.decorator, cst.Call):
            nodes.append((deco.line, deco.decorator))
    found: list[BodyCall] = []
    seen: set[int] = set()
    for line, call in sorted(nodes, key=lambda item: item[0]):
        if id(call) in seen:
            continue
        seen.add(id(call))
        ref = index.resolve_expr(summary, call.func)
        hit = match(ref, config) if ref is not None else None
        if hit is None or hit.spec is not None or hit.framework != framework:
            continue
        keywords = tuple(arg for arg in call.args if arg.keyword is not None or arg.star == "**")
        found.append(BodyCall(source_text(call.func, 40), line, keywords, hit.rules))
    return found


@dataclass(frozen=True)
class _BodyScope:
    """Evaluation in a wrapper's body: literals only (see the module docstring)."""

    index: ProjectIndex
    summary: ModuleSummary
    params: tuple[str, ...]

    def value(self, node: cst.BaseExpression) -> Outcome:
        names = _names(node)
        if names:
            own = [name for name in names if name in self.params]
            if own:
                label = "parameter" if len(own) == 1 else "parameters"
                return Unknown(f"from its {label} {', '.join(own)}")
            listed = ", ".join(names)
            return Unknown(f"from {listed}, names the parser does not follow in a wrapper's body")
        return evaluate(node, lambda name: Unknown(f"{name} is not followed"))

    def key_of(self, node: cst.BaseExpression) -> str | None:
        return None


_CONSTANTS = frozenset({"True", "False", "None"})


def _names(node: cst.BaseExpression) -> list[str]:
    """The bare names ``node`` reads, sorted (attribute parts and keyword names excluded)."""
    found: set[str] = set()

    class _Collect(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            if name.value not in _CONSTANTS:
                found.add(name.value)

        def visit_Attribute(self, attribute: cst.Attribute) -> bool:
            attribute.value.visit(self)
            return False

        def visit_Arg(self, arg: cst.Arg) -> bool:
            arg.value.visit(self)
            return False

    node.visit(_Collect())
    return sorted(found)


def apply(
    reading: Reading,
    wrapper: Wrapper,
    site_rules: Rules,
    index: ProjectIndex,
    summary: ModuleSummary,
) -> None:
    """Fold what the wrapper's body sets into the registration's ``reading`` (in place)."""
    scope = _BodyScope(index, summary, wrapper.params)
    if len(wrapper.calls) > 1:
        _several(reading, wrapper, site_rules)
        return
    call = wrapper.calls[0]
    arguments = CallArguments()
    arguments.add(_own_arguments(call, wrapper), scope)
    body = read(call.rules, arguments)
    where = f"{wrapper.path}:{call.line}"
    for name, (keyword, node) in _set_by(call, wrapper).items():
        if _handed_on(node, name, wrapper, site_rules):
            continue
        shown = f"{keyword}={source_text(node, 60)}"
        if name in reading.explicit:
            reading.fields.pop(name, None)
            reading.defaults.pop(name, None)
            reading.unresolved[name] = (
                f"the registration sets it and the wrapper {wrapper.qualname} sets it too "
                f"({shown} at {where}); which applies is not provable statically"
            )
        elif reading.unresolved.get(name, "").startswith("may be set by **"):
            reading.unresolved[name] += f"; the wrapper {wrapper.qualname} also sets it ({shown})"
        elif name in body.fields:
            reading.fields[name] = body.fields[name]
            reading.unresolved.pop(name, None)
            reading.defaults[name] = f"keyword of the wrapper {wrapper.qualname}'s call at {where}"
        else:
            reason = body.unresolved.get(name, "not a literal")
            reason = reason if reason.startswith("from ") else f"({reason})"
            reading.fields.pop(name, None)
            reading.defaults.pop(name, None)
            reading.unresolved[name] = (
                f"set by the wrapper {wrapper.qualname} {reason} ({shown} at {where}); "
                "not provable statically"
            )
    if arguments.spreads:
        for name, reason in list(reading.unresolved.items()):
            if reason == NOT_SET:
                reading.unresolved[name] = (
                    f"may be set by **{arguments.spreads[0]} in the wrapper {wrapper.qualname}'s "
                    f"call at {where}"
                )
    for option, value in body.options.items():
        if option not in reading.options and f"options.{option}" not in reading.unresolved:
            reading.options[option] = value
    for key, reason in body.unresolved.items():
        if key.startswith("options.") and key[8:] not in reading.options:
            reading.unresolved.setdefault(key, f"set by the wrapper {wrapper.qualname}: {reason}")


def _own_arguments(call: BodyCall, wrapper: Wrapper) -> list[cst.Arg]:
    """The call's keywords without the wrapper's ``**kwargs`` (the registration's keywords, read
    at the registration already)."""
    return [
        arg
        for arg in call.keywords
        if not (
            arg.star == "**"
            and isinstance(arg.value, cst.Name)
            and arg.value.value == wrapper.kwargs
        )
    ]


def _set_by(call: BodyCall, wrapper: Wrapper) -> dict[str, tuple[str, cst.BaseExpression]]:
    """The ledger fields the call sets by a keyword of its own, with that keyword and value."""
    keywords = {
        arg.keyword.value: arg.value for arg in _own_arguments(call, wrapper) if arg.keyword
    }
    found: dict[str, tuple[str, cst.BaseExpression]] = {}
    for rule in call.rules.fields:
        for keyword in rule.keywords:
            if keyword in keywords:
                found[rule.field] = (keyword, keywords[keyword])
                break
    return found


def _handed_on(node: cst.BaseExpression, name: str, wrapper: Wrapper, site_rules: Rules) -> bool:
    """``queue=queue``: the wrapper passes on its own parameter that the registration's reading
    already maps to this field (by keyword or by position)."""
    if not isinstance(node, cst.Name) or node.value not in wrapper.params:
        return False
    rule = next((rule for rule in site_rules.fields if rule.field == name), None)
    if rule is None:
        return False
    if node.value in rule.keywords:
        return True
    position = rule.position
    return position is not None and wrapper.positional[position : position + 1] == (node.value,)


def _several(reading: Reading, wrapper: Wrapper, site_rules: Rules) -> None:
    """Several calls in one body: which registers the job is not provable, so every field one of
    them sets is ``null`` (unless the wrapper only hands the registration's keyword on)."""
    lines = ", ".join(str(call.line) for call in wrapper.calls)
    for call in wrapper.calls:
        for name, (_, node) in sorted(_set_by(call, wrapper).items()):
            if _handed_on(node, name, wrapper, site_rules):
                continue
            reading.fields.pop(name, None)
            reading.defaults.pop(name, None)
            reading.unresolved[name] = (
                f"the wrapper {wrapper.qualname} calls {call.callee} more than once "
                f"({wrapper.path} lines {lines}); which call registers the job is not "
                "provable statically"
            )
