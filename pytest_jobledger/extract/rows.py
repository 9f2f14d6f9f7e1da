"""A matched registration's arguments read into a ledger row: presets, site arguments, then the
defaults that apply where the registration sets nothing (a homegrown decorator's literal parameter
defaults, a Celery ``base=`` class's literal attributes)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

import libcst as cst

from ..ledger.model import Job, JSONValue
from ..project import Config
from .arguments import CallArguments, ParameterDefault, Reading, read
from .frameworks.rules import FieldRule, Rules
from .matching import Match
from .records import ClassInfo, FunctionInfo, ModuleSummary
from .refs import Ref
from .resolve import ProjectIndex
from .values import Outcome, writable
from .wrapper import apply, wrapper_of

_MAX_BASE_DEPTH = 8

_DefaultSource = Callable[[str | int], ParameterDefault | None]


@dataclass(frozen=True)
class Scope:
    """Evaluation in one module: what hooks and argument readers see."""

    index: ProjectIndex
    summary: ModuleSummary

    def value(self, node: cst.BaseExpression) -> Outcome:
        return self.index.value(self.summary, node)

    def key_of(self, node: cst.BaseExpression) -> str | None:
        ref = self.index.resolve_expr(self.summary, node)
        return ref.key if ref is not None else None


@dataclass(frozen=True)
class RowBuilder:
    """Builds :class:`Job` rows for one extraction."""

    index: ProjectIndex
    config: Config

    def job(
        self,
        owner: ModuleSummary,
        target: FunctionInfo | ClassInfo,
        site_summary: ModuleSummary,
        line: int,
        match: Match,
        ref: Ref,
        args: Sequence[cst.Arg],
    ) -> Job:
        arguments = CallArguments()
        for preset in ref.presets:
            arguments.add(preset.args, Scope(self.index, preset.module))
        arguments.add(args, Scope(self.index, site_summary))
        base = self._base_class_defaults(site_summary, args)
        defaults = _first_of(self._parameter_defaults(ref, match), base)
        reading = read(_both_forms(match, ref), arguments, defaults)
        if base is not None and "base" in arguments.keywords:
            # a followed class is the option's value (its attributes are read above)
            reading.unresolved.pop("options.base", None)
            reading.options["base"] = base.qualname
        wrapper = wrapper_of(self.index, self.config, ref, match)
        if wrapper is not None and ref.module is not None:
            apply(reading, wrapper, match.rules, self.index, ref.module)
        return self.build(owner, target, site_summary, line, match, reading)

    def build(
        self,
        owner: ModuleSummary,
        target: FunctionInfo | ClassInfo,
        site_summary: ModuleSummary,
        line: int,
        match: Match,
        reading: Reading,
    ) -> Job:
        module = owner.source.module
        job_id = f"{module}.{target.qualpath}" if module else target.qualpath
        name = reading.fields.get("name")
        if self.config.extraction.job_id == "registered-name" and isinstance(name, str):
            job_id = name
        fields = reading.fields
        return Job(
            id=job_id,
            function=target.name,
            module=module,
            path=site_summary.source.rel_path,
            line=line,
            framework=match.framework,
            decorator=match.decorator,
            name=_text(fields.get("name")),
            queue=_text(fields.get("queue")),
            max_retries=_count(fields.get("max_retries")),
            retry_delay_s=_number(fields.get("retry_delay_s")),
            soft_time_limit_s=_number(fields.get("soft_time_limit_s")),
            time_limit_s=_number(fields.get("time_limit_s")),
            docstring=writable(target.docstring() or "") or None,
            options=dict(sorted(reading.options.items())),
            delivery=dict(sorted(_with_body_facts(reading, owner, target, match).items())),
            unresolved=dict(sorted(reading.unresolved.items())),
            defaults=dict(sorted(reading.defaults.items())),
        )

    def class_attributes(
        self, summary: ModuleSummary, klass: ClassInfo, depth: int
    ) -> Iterator[tuple[ModuleSummary, str, cst.BaseExpression]]:
        """Literal class attributes, inherited ones from scanned base classes first."""
        if depth < _MAX_BASE_DEPTH:
            for base in klass.bases:
                ref = self.index.resolve_expr(summary, base)
                if ref is not None and ref.klass is not None and ref.module is not None:
                    yield from self.class_attributes(ref.module, ref.klass, depth + 1)
        for name, value in klass.attributes.items():
            if not name.startswith("_"):
                yield summary, name, value

    def _parameter_defaults(self, ref: Ref, match: Match) -> _Defaults | None:
        if ref.function is None or ref.module is None or match.spec is None:
            return None
        where = (
            f"parameter default of {match.spec.qualname} "
            f"at {ref.module.source.rel_path}:{ref.function.line}"
        )
        return _Defaults(self.index, ref.module, ref.function.params, where)

    def _base_class_defaults(
        self, summary: ModuleSummary, args: Sequence[cst.Arg]
    ) -> _ClassDefaults | None:
        """Celery's ``base=SomeTask``: literal attributes of a base class in the scanned tree
        (and of its scanned bases) apply where the registration sets nothing."""
        base = next((a.value for a in args if a.keyword and a.keyword.value == "base"), None)
        if base is None:
            return None
        ref = self.index.resolve_expr(summary, base)
        if ref is None or ref.klass is None or ref.module is None:
            return None
        attributes = {
            name: (owner, value)
            for owner, name, value in self.class_attributes(ref.module, ref.klass, 0)
        }
        where = (
            f"attribute of base class {ref.qualname} "
            f"at {ref.module.source.rel_path}:{ref.klass.line}"
        )
        return _ClassDefaults(self.index, attributes, where, ref.qualname)


def _both_forms(match: Match, ref: Ref) -> Rules:
    """A configured decorator's fields readable both ways, as Python binds its arguments: a
    field mapped to a position is also read from the keyword of the parameter there, and one
    mapped to a keyword also from that parameter's position, when the decorator is defined in
    the scanned tree (its ``def`` says which); else a position also reads the field's own name."""
    spec = match.spec
    if spec is None or not spec.fields:
        return match.rules
    params = ref.function.params if ref.function is not None else None
    named = [p.name.value for p in params.params] if params is not None else []
    offset = len(params.posonly_params) if params is not None else 0
    rules: list[FieldRule] = []
    for rule in match.rules.fields:
        where = spec.fields.get(rule.field)
        if isinstance(where, int) and params is None:
            rule = FieldRule(rule.field, (*rule.keywords, rule.field), where)
        elif isinstance(where, int) and 0 <= where - offset < len(named):
            rule = FieldRule(rule.field, (*rule.keywords, named[where - offset]), where)
        elif isinstance(where, str) and where in named and rule.position is None:
            rule = FieldRule(rule.field, rule.keywords, offset + named.index(where))
        rules.append(rule)
    return replace(match.rules, fields=tuple(rules))


@dataclass(frozen=True)
class _Defaults:
    """Literal parameter defaults of a homegrown decorator defined in the scanned tree."""

    index: ProjectIndex
    summary: ModuleSummary
    params: cst.Parameters
    where: str

    def __call__(self, selector: str | int) -> ParameterDefault | None:
        params = self.params
        positional = [*params.posonly_params, *params.params]
        candidates = [*positional, *params.kwonly_params]
        if isinstance(selector, int):
            param = positional[selector] if selector < len(positional) else None
        else:
            param = next((p for p in candidates if p.name.value == selector), None)
        if param is None or param.default is None:
            return None
        return ParameterDefault(self.index.value(self.summary, param.default), self.where)


@dataclass(frozen=True)
class _ClassDefaults:
    """Literal class attributes (by keyword name) standing in for absent registration keywords."""

    index: ProjectIndex
    attributes: dict[str, tuple[ModuleSummary, cst.BaseExpression]]
    where: str
    qualname: str

    def __call__(self, selector: str | int) -> ParameterDefault | None:
        found = self.attributes.get(selector) if isinstance(selector, str) else None
        if found is None:
            return None
        owner, value = found
        return ParameterDefault(self.index.value(owner, value), self.where)


def _first_of(*sources: _Defaults | _ClassDefaults | None) -> _DefaultSource | None:
    """The first source that has a value for a selector, in order of precedence."""
    present = [source for source in sources if source is not None]
    if not present:
        return None

    def lookup(selector: str | int) -> ParameterDefault | None:
        for source in present:
            found = source(selector)
            if found is not None:
                return found
        return None

    return lookup


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _number(value: object) -> int | float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def _with_body_facts(
    reading: Reading, owner: ModuleSummary, target: FunctionInfo | ClassInfo, match: Match
) -> dict[str, JSONValue]:
    """The typed delivery options, and ``calls_retry`` when a Celery task's body (a class's
    ``run``) calls ``self.retry()``: the only retry its ``max_retries`` bounds on its own."""
    delivery: dict[str, JSONValue] = dict(reading.delivery)
    body = f"{target.qualpath}.run" if isinstance(target, ClassInfo) else target.qualpath
    if match.framework == "celery" and body in owner.retry_callers:
        delivery["calls_retry"] = True
    return delivery
