"""Jobs listed in a worker's settings (the table is :mod:`.frameworks.settings`): an arq
settings class's ``functions`` and ``cron_jobs``, and a SAQ settings mapping's.

Settings are read only in a module that imports the framework (``import arq``, ``from saq import
...``): the import is the binding that says whose settings a class or a mapping is, never its
name (``WorkerSettings`` is only a convention). Each entry must name a module-level def of the
scanned tree (directly, through ``func(fn, ...)``/``cron(fn, ...)``/``CronJob(fn, ...)``, or as
an import path string); anything else is a located ``dynamic-registration`` entry, and a list
that is not written out (``functions = make_functions()``) is one too.

The line of a job is its list's assignment; an arq class's ``queue_name``, ``job_timeout`` and
``max_tries`` are the worker's defaults, so a value taken from them is listed under ``defaults``
with the attribute's place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import libcst as cst

from ..ledger.model import Job, Pattern, Unsupported
from .advice import compose, fitted, short
from .arguments import NOT_SET, CallArguments, ParameterDefault, Reading, read
from .binding import resolve_in
from .enqueue import module_function
from .frameworks.settings import (
    ARQ_CLASS_DEFAULTS,
    ARQ_CRON,
    ARQ_FUNCTION,
    ARQ_WORKER_CALLS,
    LISTS,
    SAQ_JOB,
    SETTINGS_MODULES,
    tries_to_retries,
)
from .matching import Match
from .records import CallSite, ClassInfo, ModuleSummary
from .resolve import ProjectIndex
from .rows import RowBuilder, Scope
from .values import Known, source_text

_CRON_TRIES = (
    f"{NOT_SET}; arq's cron() defaults to max_tries=1: one run, no retry (the settings' "
    "max_tries does not apply to cron jobs)"
)


@dataclass(frozen=True)
class _Place:
    """One settings list: where it is written and how its entries are read."""

    framework: str
    attribute: str
    line: int
    shown: str
    defaults: Mapping[str, tuple[cst.BaseExpression, str]]


@dataclass
class WorkerSettings:
    index: ProjectIndex
    rows: RowBuilder

    def sites(self, summary: ModuleSummary) -> Iterator[Job | Unsupported]:
        imported = {
            binding.target.split(".", 1)[0]
            for bindings in summary.bindings.values()
            for binding in bindings
            if binding.kind == "import" and binding.target
        } & SETTINGS_MODULES
        imported = {name for name in imported if self.index.source(name) is None}
        if "arq" in imported:
            for klass in summary.classes.values():
                if "." not in klass.qualpath:
                    yield from self._arq_class(summary, klass)
            for name, bindings in summary.bindings.items():
                value = bindings[0].value if len(bindings) == 1 else None
                if bindings[0].kind == "assign" and value is not None:
                    settings = _settings_mapping(value)
                    if settings is not None:
                        prefix = f"{summary.source.module}.{name}"
                        yield from self._arq_keywords(
                            summary, bindings[0].line, settings, f"{prefix}.{{}}".format
                        )
            for call in summary.calls:
                yield from self._arq_worker_call(summary, call)
        if "saq" in imported:
            for name, bindings in summary.bindings.items():
                value = bindings[0].value if len(bindings) == 1 else None
                if bindings[0].kind == "assign" and isinstance(value, cst.Dict):
                    yield from self._saq_mapping(summary, name, bindings[0].line, value)

    def _arq_class(self, summary: ModuleSummary, klass: ClassInfo) -> Iterator[Job | Unsupported]:
        path = summary.source.rel_path
        defaults = {
            name: (klass.attributes[name], f"attribute {klass.name}.{name} at {path}:{line}")
            for name in ARQ_CLASS_DEFAULTS
            if name in klass.attributes
            for line in [klass.attribute_lines.get(name, klass.line)]
        }
        for attribute in LISTS["arq"]:
            if attribute not in klass.attributes:
                continue
            place = _Place(
                "arq",
                attribute,
                klass.attribute_lines.get(attribute, klass.line),
                f"{summary.source.module}.{klass.name}.{attribute}",
                defaults,
            )
            yield from self._entries(summary, place, klass.attributes[attribute])

    def _arq_keywords(
        self,
        summary: ModuleSummary,
        line: int,
        settings: Mapping[str, cst.BaseExpression],
        shown: Callable[[str], str],
    ) -> Iterator[Job | Unsupported]:
        """arq settings as a mapping (``{"functions": [...]}``, ``dict(...)``) or as the keywords
        of ``Worker(...)``/``run_worker(...)``: the same lists and defaults as a class's
        (``shown``: how a key of them is named)."""
        path = summary.source.rel_path
        defaults = {
            name: (settings[name], f"{shown(name)} at {path}:{line}")
            for name in ARQ_CLASS_DEFAULTS
            if name in settings
        }
        for attribute in LISTS["arq"]:
            if attribute in settings:
                place = _Place("arq", attribute, line, shown(attribute), defaults)
                yield from self._entries(summary, place, settings[attribute])

    def _arq_worker_call(
        self, summary: ModuleSummary, site: CallSite
    ) -> Iterator[Job | Unsupported]:
        """``Worker(functions=[...], ...)`` and ``run_worker(Settings, functions=[...])``: arq's
        own callables, by what the callee is bound to (never by its spelling)."""
        ref, local = resolve_in(self.index, summary, site.call.func, site.context)
        if ref is None or local or ref.refusal is not None or ref.key not in ARQ_WORKER_CALLS:
            return
        settings = {
            arg.keyword.value: arg.value for arg in site.call.args if arg.keyword is not None
        }
        if set(settings) & set(LISTS["arq"]):
            yield from self._arq_keywords(
                summary, site.line, settings, f"{ref.key}({{}}=...)".format
            )

    def _saq_mapping(
        self, summary: ModuleSummary, name: str, line: int, mapping: cst.Dict
    ) -> Iterator[Job | Unsupported]:
        for element in mapping.elements:
            if not isinstance(element, cst.DictElement):
                continue
            key = element.key
            text = key.evaluated_value if isinstance(key, cst.SimpleString) else None
            if text in LISTS["saq"]:
                assert isinstance(text, str)
                shown = f'{summary.source.module}.{name}["{text}"]'
                place = _Place("saq", text, line, shown, {})
                yield from self._entries(summary, place, element.value)

    def _entries(
        self, summary: ModuleSummary, place: _Place, value: cst.BaseExpression
    ) -> Iterator[Job | Unsupported]:
        path = summary.source.rel_path
        if not isinstance(value, (cst.List, cst.Tuple)):
            yield Unsupported(
                path,
                place.line,
                Pattern.DYNAMIC_REGISTRATION,
                compose(
                    f"{place.shown} is {short(source_text(value))}, not a written-out list of "
                    f"{place.framework} jobs",
                    fitted(
                        path,
                        Pattern.DYNAMIC_REGISTRATION,
                        "Write the list out, each entry a function or a call that wraps one",
                    ),
                ),
            )
            return
        wrapper = LISTS[place.framework][place.attribute]
        for element in value.elements:
            yield from self._entry(summary, place, element.value, wrapper)

    def _entry(
        self, summary: ModuleSummary, place: _Place, node: cst.BaseExpression, wrapper: str
    ) -> Iterator[Job | Unsupported]:
        handed: cst.BaseExpression | None = node
        args: Sequence[cst.Arg] = ()
        named: cst.BaseExpression | None = None
        if isinstance(node, cst.Call) and wrapper:
            ref = self.index.resolve_expr(summary, node.func)
            positional = [arg for arg in node.args if not arg.keyword and not arg.star]
            if ref is not None and ref.refusal is None and ref.key == wrapper and positional:
                handed = positional[0].value
                args = [arg for arg in node.args if arg is not positional[0]]
            else:
                handed = None
        elif isinstance(node, cst.Tuple) and place.framework == "saq" and len(node.elements) == 2:
            named, handed = node.elements[0].value, node.elements[1].value
        target = module_function(self.index, summary, handed) if handed is not None else None
        if target is None:
            path = summary.source.rel_path
            wraps = "func()/cron()" if place.framework == "arq" else "CronJob()"
            yield Unsupported(
                path,
                place.line,
                Pattern.DYNAMIC_REGISTRATION,
                compose(
                    f"{place.shown} lists {short(source_text(node))}, which is not a "
                    "module-level function of the scanned tree",
                    fitted(
                        path,
                        Pattern.DYNAMIC_REGISTRATION,
                        f"List the function itself (or a {wraps} call wrapping it)",
                    ),
                ),
            )
            return
        owner, function = target
        scope = Scope(self.index, summary)
        arguments = CallArguments()
        arguments.add(args, scope)
        if named is not None:
            arguments.add([cst.Arg(value=named, keyword=cst.Name("name"))], scope)
        rules = ARQ_FUNCTION if place.framework == "arq" else SAQ_JOB
        is_cron = wrapper == ARQ_CRON
        defaults = {
            name: found
            for name, found in place.defaults.items()
            if not (is_cron and name == "max_tries")
        }

        def lookup(selector: str | int) -> ParameterDefault | None:
            found = defaults.get(selector) if isinstance(selector, str) else None
            if found is None:
                return None
            return ParameterDefault(scope.value(found[0]), found[1])

        reading = read(rules, arguments, lookup)
        if place.framework == "arq" and "max_retries" not in reading.explicit:
            _arq_tries(reading, defaults, scope, is_cron)
        match = Match(place.framework, rules, place.shown)
        yield self.rows.build(owner, function, summary, place.line, match, reading)


def _arq_tries(
    reading: Reading,
    defaults: Mapping[str, tuple[cst.BaseExpression, str]],
    scope: Scope,
    is_cron: bool,
) -> None:
    """A function that sets no ``max_tries`` runs the settings' (a cron job its own default)."""
    if is_cron:
        reading.unresolved["max_retries"] = _CRON_TRIES
        return
    if "max_tries" not in defaults:
        return
    node, source = defaults["max_tries"]
    outcome = tries_to_retries(node, scope)["max_retries"]
    if isinstance(outcome, Known):
        reading.fields["max_retries"] = outcome.value
        reading.unresolved.pop("max_retries", None)
        reading.defaults["max_retries"] = source
    else:
        reading.unresolved["max_retries"] = f"{NOT_SET}; the {source} is not provable"


def _settings_mapping(value: cst.BaseExpression) -> Mapping[str, cst.BaseExpression] | None:
    """A written-out mapping of arq settings (``{"functions": [...]}`` or ``dict(functions=...)``)
    that lists jobs, as key -> value; ``None`` for anything else."""
    found: dict[str, cst.BaseExpression] = {}
    if isinstance(value, cst.Dict):
        for element in value.elements:
            if isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString):
                key = element.key.evaluated_value
                if isinstance(key, str):
                    found[key] = element.value
    elif isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
        if value.func.value != "dict":
            return None
        found = {arg.keyword.value: arg.value for arg in value.args if arg.keyword is not None}
    return found if set(found) & set(LISTS["arq"]) else None
