"""From scanned files to ledger rows: match resolved decorators and calls to a framework, read their
arguments, and report every registration that cannot be followed instead of dropping it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

import libcst as cst

from ..config import Config, DecoratorSpec
from ..model import RESOLVED_FIELDS, Job, Ledger, Unsupported
from .arguments import CallArguments, ParameterDefault, Reading, read
from .discovery import SourceFile, iter_source_files
from .frameworks import CUSTOM, FRAMEWORKS, Rules
from .resolve import ProjectIndex, Ref
from .symbols import CallSite, ClassInfo, Context, DecoratorSite, FunctionInfo, ModuleSummary
from .values import Outcome, source_text

#: Every registration names its decorator, and every import of a decorator (aliased or not) spells
#: the decorator's own name: ``*task`` (Celery, Huey, ``register_task``), ``actor`` (Dramatiq),
#: ``job`` (RQ) or a configured decorator's last name. Files without one are never parsed, unless
#: they use a decorator alias defined in a parsed module (see :meth:`Extractor.run`).
_TRIGGER = (rb"task\b", rb"\bactor\b", rb"\bjob\b")
_MAX_BASE_DEPTH = 8

_DefaultSource = Callable[[str | int], ParameterDefault | None]


@dataclass(frozen=True)
class Match:
    framework: str
    rules: Rules
    decorator: str
    spec: DecoratorSpec | None = None


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


def extract_ledger(config: Config) -> Ledger:
    """Every job registration under the configured paths; nothing is imported or executed."""
    extractor = Extractor(config)
    jobs: list[Job] = []
    unsupported: list[Unsupported] = []
    for job_or_problem in extractor.run():
        if isinstance(job_or_problem, Job):
            jobs.append(job_or_problem)
        else:
            unsupported.append(job_or_problem)
    return Ledger.build(jobs, [*unsupported, *extractor.index.problems])


def trigger_pattern(config: Config) -> re.Pattern[bytes]:
    return _word_pattern(name.rsplit(".", 1)[-1] for name in config.decorators)


def _word_pattern(words: Iterable[str], base: Sequence[bytes] = _TRIGGER) -> re.Pattern[bytes]:
    spelled = [rb"\b" + re.escape(word.encode()) + rb"\b" for word in sorted(set(words))]
    return re.compile(b"|".join([*base, *spelled]))


class Extractor:
    def __init__(self, config: Config) -> None:
        self.config = config
        self.files = list(iter_source_files(config.root, config.paths, config.all_excludes))
        canonical: dict[str, str] = {}
        instances: set[str] = set()
        keys: set[str] = set(config.decorators)
        for framework in FRAMEWORKS.values():
            canonical.update(framework.canonical)
            instances |= framework.instance_classes
            keys |= set(framework.decorators)
        self.index = ProjectIndex(
            files=self.files,
            max_file_bytes=config.max_file_bytes,
            canonical=canonical,
            instance_classes=frozenset(instances),
            decorator_keys=frozenset(keys),
        )
        self.trigger = trigger_pattern(config)

    def run(self) -> Iterator[Job | Unsupported]:
        skipped: list[SourceFile] = []
        aliases: set[str] = set()
        for source in self.files:
            data = self.index.read(source)
            if data is None:
                continue
            if not self.trigger.search(data):
                skipped.append(source)
                continue
            summary = self.index.summary_for_file(source, data)
            if summary is not None:
                aliases |= self._decorator_aliases(summary)
                yield from self.scan(summary)
        # A module-level alias (``billing_task = app.task(queue="billing")``) can be imported by a
        # file that never spells a trigger word; look for the alias names in the skipped files.
        if not aliases or not skipped:
            return
        alias_pattern = _word_pattern(aliases, base=())
        for source in skipped:
            data = self.index.read(source)
            if data is None or not alias_pattern.search(data):
                continue
            summary = self.index.summary_for_file(source, data)
            if summary is not None:
                yield from self.scan(summary)

    def _decorator_aliases(self, summary: ModuleSummary) -> set[str]:
        """Module-level names in ``summary`` bound (by assignment) to a job decorator."""
        found: set[str] = set()
        for name, bindings in summary.bindings.items():
            if any(binding.kind == "assign" for binding in bindings):
                ref = self.index.resolve_name(summary, name)
                if ref is not None and self.match(ref) is not None:
                    found.add(name)
        return found

    def scan(self, summary: ModuleSummary) -> list[Job | Unsupported]:
        """Every job and unsupported place in one module; a module too convoluted to follow is
        one unsupported entry, never a crash of the whole run."""
        found: list[Job | Unsupported] = []
        try:
            for site in summary.decorated:
                found.extend(self._decorator_site(summary, site))
            for call in summary.calls:
                found.extend(self._call_site(summary, call))
        except RecursionError:
            return [
                Unsupported(
                    summary.source.rel_path,
                    1,
                    "too-complex",
                    "names or expressions in this file are nested too deeply to follow, so its "
                    "jobs are not listed; simplify the registrations or exclude the file",
                )
            ]
        return found

    # -- matching ----------------------------------------------------------------------------

    def match(self, ref: Ref) -> Match | None:
        for name in sorted(ref.names | {ref.qualname}):
            spec = self.config.decorators.get(name)
            if spec is not None:
                if spec.framework is None:
                    unmapped = {
                        field: f"no argument of {spec.qualname} is mapped to {field} in "
                        "[tool.jobledger.decorators]"
                        for field in RESOLVED_FIELDS
                        if field not in spec.fields
                    }
                    rules = replace(
                        CUSTOM.with_overrides(spec.fields, spec.time_unit), not_applicable=unmapped
                    )
                    return Match("custom", rules, spec.qualname, spec)
                base = FRAMEWORKS[spec.framework].decorators
                framework_rules = next(iter(base.values()))
                rules = framework_rules.with_overrides(spec.fields, spec.time_unit)
                return Match(spec.framework, rules, spec.qualname, spec)
        for framework in FRAMEWORKS.values():
            found = framework.decorators.get(ref.key)
            if found is not None:
                shown = ref.qualname if "()" in ref.key else ref.key
                return Match(framework.name, found, shown)
        return None

    def _inside_configured_decorator(self, summary: ModuleSummary, context: Context) -> bool:
        """The body of a configured homegrown decorator is its implementation, not a job."""
        if not context.in_function:
            return False
        return f"{summary.source.module}.{context.in_function[0]}" in self.config.decorators

    # -- decorator sites ---------------------------------------------------------------------

    def _decorator_site(
        self, summary: ModuleSummary, site: DecoratorSite
    ) -> Iterator[Job | Unsupported]:
        node = site.decorator
        callee, args = (node.func, node.args) if isinstance(node, cst.Call) else (node, ())
        ref = self.index.resolve_expr(summary, callee)
        match = self.match(ref) if ref is not None else None
        if ref is None or match is None:
            return
        if self._inside_configured_decorator(summary, site.context):
            return
        problem = self._context_problem(summary, site.line, site.context, match, site.target.name)
        if problem is not None:
            yield problem
            return
        yield self._job(summary, site.target, summary, site.line, match, ref, args)

    # -- call sites --------------------------------------------------------------------------

    def _call_site(self, summary: ModuleSummary, site: CallSite) -> Iterator[Job | Unsupported]:
        call = site.call
        curried = isinstance(call.func, cst.Call)
        callee = call.func.func if isinstance(call.func, cst.Call) else call.func
        ref = self.index.resolve_expr(summary, callee)
        if ref is None:
            return
        if not curried and self._is_register_method(ref):
            yield from self._class_registration(summary, site, ref)
            return
        match = self.match(ref)
        if match is None:
            return
        positional = [arg for arg in call.args if not arg.keyword and not arg.star]
        if curried:
            assert isinstance(call.func, cst.Call)
            registration_args: Sequence[cst.Arg] = call.func.args
        elif ref.called or match.rules.fn_first:
            registration_args = [
                arg for arg in call.args if positional and arg is not positional[0]
            ]
        else:
            return
        if not positional or self._inside_configured_decorator(summary, site.context):
            return
        target_node = positional[0].value
        label = source_text(target_node, 40)
        problem = self._context_problem(summary, site.line, site.context, match, label)
        if problem is not None:
            yield problem
            return
        target = self._local_function(summary, target_node)
        if target is None:
            yield Unsupported(
                summary.source.rel_path,
                site.line,
                "dynamic-registration",
                f"{match.decorator}({label}) registers something that is not a function defined "
                "in this module, so the parser cannot tell which job it is; register the function "
                "where it is defined (decorate its def), or exclude this file if it is not a job",
            )
            return
        yield self._job(summary, target, summary, site.line, match, ref, registration_args)

    def _local_function(
        self, summary: ModuleSummary, node: cst.BaseExpression
    ) -> FunctionInfo | None:
        if not isinstance(node, cst.Name):
            return None
        ref = self.index.resolve_name(summary, node.value)
        if ref is None or ref.function is None or ref.module is not summary:
            return None
        return ref.function

    def _is_register_method(self, ref: Ref) -> bool:
        return any(ref.key in fw.register_methods for fw in FRAMEWORKS.values())

    def _class_registration(
        self, summary: ModuleSummary, site: CallSite, ref: Ref
    ) -> Iterator[Job | Unsupported]:
        framework = next(fw for fw in FRAMEWORKS.values() if ref.key in fw.register_methods)
        assert framework.class_rules is not None
        match = Match(framework.name, framework.class_rules, ref.qualname)
        positional = [arg.value for arg in site.call.args if not arg.keyword and not arg.star]
        if not positional:
            return
        node = positional[0]
        label = source_text(node, 40)
        problem = self._context_problem(summary, site.line, site.context, match, label)
        if problem is not None:
            yield problem
            return
        target_node = node.func if isinstance(node, cst.Call) else node
        target = self.index.resolve_expr(summary, target_node)
        if target is None or target.klass is None or target.module is None:
            yield Unsupported(
                summary.source.rel_path,
                site.line,
                "dynamic-registration",
                f"{ref.qualname}({label}) registers a task class the parser cannot find in the "
                "scanned tree; register a class defined in a scanned module",
            )
            return
        owner = target.module
        arguments = CallArguments()
        for owner_summary, name, value in self._class_attributes(owner, target.klass, 0):
            arguments.add(
                [cst.Arg(value=value, keyword=cst.Name(name))], Scope(self.index, owner_summary)
            )
        yield self._build(
            owner, target.klass, summary, site.line, match, read(match.rules, arguments)
        )

    def _class_attributes(
        self, summary: ModuleSummary, klass: ClassInfo, depth: int
    ) -> Iterator[tuple[ModuleSummary, str, cst.BaseExpression]]:
        """Literal class attributes, inherited ones from scanned base classes first."""
        if depth < _MAX_BASE_DEPTH:
            for base in klass.bases:
                ref = self.index.resolve_expr(summary, base)
                if ref is not None and ref.klass is not None and ref.module is not None:
                    yield from self._class_attributes(ref.module, ref.klass, depth + 1)
        for name, value in klass.attributes.items():
            if not name.startswith("_"):
                yield summary, name, value

    # -- shared ------------------------------------------------------------------------------

    def _context_problem(
        self, summary: ModuleSummary, line: int, context: Context, match: Match, name: str
    ) -> Unsupported | None:
        path = summary.source.rel_path
        if context.in_function:
            where = ".".join(context.in_function)
            return Unsupported(
                path,
                line,
                "factory-registration",
                f"{match.decorator} registers {name} inside {where}(), so the job only exists "
                "when that function runs and the parser cannot know its id or arguments; "
                "register it at module level, or exclude this file if it is not a real job",
            )
        if context.in_loop:
            return Unsupported(
                path,
                line,
                "loop-registration",
                f"{match.decorator} registers {name} inside a loop, so each pass registers a job "
                "the parser cannot name; write one module-level registration per job",
            )
        return None

    def _job(
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
        defaults = _first_of(
            self._parameter_defaults(ref, match), self._base_class_defaults(site_summary, args)
        )
        return self._build(
            owner, target, site_summary, line, match, read(match.rules, arguments, defaults)
        )

    def _build(
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
        if self.config.job_id == "registered-name" and isinstance(name, str):
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
            docstring=target.docstring() or None,
            options=dict(sorted(reading.options.items())),
            unresolved=dict(sorted(reading.unresolved.items())),
            defaults=dict(sorted(reading.defaults.items())),
        )

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
            for owner, name, value in self._class_attributes(ref.module, ref.klass, 0)
        }
        where = (
            f"attribute of base class {ref.qualname} "
            f"at {ref.module.source.rel_path}:{ref.klass.line}"
        )
        return _ClassDefaults(self.index, attributes, where)


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
