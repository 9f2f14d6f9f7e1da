"""Celery's own configuration read as facts of its jobs (joined in :mod:`.celery_facts`).

Read only on a Celery app object by binding (the table is in :mod:`.frameworks.celery`):
``app.conf.task_routes = {...}`` and ``app.conf.beat_schedule = {...}`` at module level,
``app.conf.update(task_routes=..., beat_schedule=...)``, the module-level ``task_routes`` and
``beat_schedule`` of a scanned module named by ``app.config_from_object("proj.celeryconfig")``,
and ``app.send_task("name")``. A ``task_routes`` that is not a written-out dict or list of dicts
(a router function, a computed value) is a located ``unsupported-framework`` entry: its routes
cannot be read. Django's ``config_from_object("django.conf:settings", namespace="CELERY")`` reads
the settings module the same module names as ``DJANGO_SETTINGS_MODULE``'s default (Celery's
Django guide's ``os.environ.setdefault(...)``), with the keys the namespace prefixes
(``CELERY_TASK_ROUTES``); where no such line names one module, it is not followed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from ..ledger.model import JSONValue, Pattern, Unsupported
from .advice import compose, fitted, short
from .celery_facts import CeleryFact
from .frameworks.celery import (
    CONF,
    CONFIG_FROM_OBJECT,
    CONFIG_KEYS,
    DJANGO_SETTINGS,
    ENVIRON_SETDEFAULT,
    SEND_TASK,
    SETTINGS_VARIABLE,
)
from .records import CallSite, ModuleSummary
from .resolve import ProjectIndex
from .values import Known, source_text

Found = CeleryFact | Unsupported


@dataclass
class CeleryConfig:
    index: ProjectIndex

    def assignments(self, summary: ModuleSummary) -> Iterator[Found]:
        for assign in summary.attribute_assigns:
            key = assign.target.attr.value
            if key in CONFIG_KEYS and self._key(summary, assign.target.value) == CONF:
                yield from self._setting(summary, key, assign.value, assign.line)

    def call(self, summary: ModuleSummary, site: CallSite) -> Iterator[Found]:
        func = site.call.func
        if not isinstance(func, cst.Attribute):
            return
        word = func.attr.value
        if word == "update" and self._key(summary, func.value) == CONF:
            for arg in site.call.args:
                if arg.keyword is not None and arg.keyword.value in CONFIG_KEYS:
                    yield from self._setting(summary, arg.keyword.value, arg.value, site.line)
            return
        if word not in ("send_task", "config_from_object"):
            return
        key = self._key(summary, func)
        positional = [arg.value for arg in site.call.args if not arg.keyword and not arg.star]
        if not positional or key not in (SEND_TASK, CONFIG_FROM_OBJECT):
            return
        named = self.index.value(summary, positional[0])
        if not isinstance(named, Known) or not isinstance(named.value, str):
            return
        if key == SEND_TASK:
            yield CeleryFact("send", summary.source.rel_path, site.line, named.value)
            return
        module = named.value
        if module == DJANGO_SETTINGS:
            module = self._django_settings(summary) or ""
        if ":" in module:
            return  # ``module:object``: an object's attributes, not a module's names
        config = self.index.summary_for_module(module)
        if config is None:
            return
        namespace = self._namespace(summary, site.call)
        for key in sorted(CONFIG_KEYS):
            name = f"{namespace}_{key.upper()}" if namespace else key
            bindings = config.bindings.get(name, [])
            if len(bindings) == 1 and bindings[0].kind == "assign" and bindings[0].value:
                yield from self._setting(config, key, bindings[0].value, bindings[0].line)

    def _namespace(self, summary: ModuleSummary, call: cst.Call) -> str | None:
        """``namespace="CELERY"``: the configuration's keys are ``CELERY_TASK_ROUTES``, ..."""
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == "namespace":
                value = self.index.value(summary, arg.value)
                if isinstance(value, Known) and isinstance(value.value, str):
                    return value.value
        return None

    def _django_settings(self, summary: ModuleSummary) -> str | None:
        """The settings module Django's Celery set-up names in the same module
        (``os.environ.setdefault("DJANGO_SETTINGS_MODULE", "proj.settings")``, as Celery's
        Django guide writes it), when it names exactly one."""
        named: set[str] = set()
        for site in summary.calls:
            if self._key(summary, site.call.func) != ENVIRON_SETDEFAULT:
                continue
            values = [
                self.index.value(summary, arg.value)
                for arg in site.call.args
                if not arg.keyword and not arg.star
            ]
            if len(values) == 2 and values[0] == Known(SETTINGS_VARIABLE):
                chosen = values[1]
                if isinstance(chosen, Known) and isinstance(chosen.value, str):
                    named.add(chosen.value)
        return named.pop() if len(named) == 1 else None

    def _key(self, summary: ModuleSummary, node: cst.BaseExpression) -> str | None:
        ref = self.index.resolve_expr(summary, node)
        return ref.key if ref is not None and ref.refusal is None else None

    def _setting(
        self, summary: ModuleSummary, key: str, value: cst.BaseExpression, line: int
    ) -> Iterator[Found]:
        if key == "task_routes":
            yield from self._routes(summary, value, line)
        else:
            yield from self._beat(summary, value, line)

    def _routes(
        self, summary: ModuleSummary, value: cst.BaseExpression, line: int
    ) -> Iterator[Found]:
        tables: list[cst.BaseExpression] = [value] if isinstance(value, cst.Dict) else []
        if isinstance(value, (cst.List, cst.Tuple)):
            tables = [element.value for element in value.elements]
        if not tables or not all(isinstance(table, cst.Dict) for table in tables):
            yield Unsupported(
                summary.source.rel_path,
                line,
                Pattern.UNSUPPORTED_FRAMEWORK,
                compose(
                    f"task_routes is {short(source_text(value))}, not a written-out dict (or "
                    "list of dicts) of routes",
                    fitted(
                        summary.source.rel_path,
                        Pattern.UNSUPPORTED_FRAMEWORK,
                        "A router function's queues cannot be read: write the routes out, or "
                        "set each job's queue at its registration",
                    ),
                ),
            )
            return
        for table in tables:
            assert isinstance(table, cst.Dict)
            for element in table.elements:
                if not isinstance(element, cst.DictElement):
                    continue
                pattern = self.index.value(summary, element.key)
                route = self.index.value(summary, element.value)
                if not isinstance(pattern, Known) or not isinstance(pattern.value, str):
                    continue
                queue: JSONValue = None
                if isinstance(route, Known) and isinstance(route.value, str):
                    queue = route.value
                elif isinstance(route, Known) and isinstance(route.value, dict):
                    queue = route.value.get("queue")
                if isinstance(queue, str):
                    yield CeleryFact(
                        "route", summary.source.rel_path, line, pattern.value, {"queue": queue}
                    )

    def _beat(
        self, summary: ModuleSummary, value: cst.BaseExpression, line: int
    ) -> Iterator[Found]:
        if not isinstance(value, cst.Dict):
            return
        for element in value.elements:
            if not isinstance(element, cst.DictElement) or not isinstance(element.value, cst.Dict):
                continue
            entry = self.index.value(summary, element.key)
            fields = {
                item.key.evaluated_value: item.value
                for item in element.value.elements
                if isinstance(item, cst.DictElement) and isinstance(item.key, cst.SimpleString)
            }
            task = self.index.value(summary, fields["task"]) if "task" in fields else None
            if not isinstance(task, Known) or not isinstance(task.value, str):
                continue
            data: dict[str, JSONValue] = {
                "entry": entry.value if isinstance(entry, Known) else source_text(element.key)
            }
            for name in ("schedule", "args", "kwargs"):
                if name in fields:
                    found = self.index.value(summary, fields[name])
                    data[name] = (
                        found.value if isinstance(found, Known) else source_text(fields[name], 80)
                    )
            yield CeleryFact("beat", summary.source.rel_path, line, task.value, data)
