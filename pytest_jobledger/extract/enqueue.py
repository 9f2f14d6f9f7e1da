"""RQ jobs that are enqueued, not decorated (the table is :mod:`.frameworks.enqueue`).

A call ``<receiver>.enqueue(fn, ...)`` is a job site only when the receiver is an RQ queue or an
rq-scheduler by binding: ``Queue(...)`` itself, or a name (in this module or imported) bound to
one, or django-rq's ``get_queue(...)``. A method spelled ``enqueue`` on anything else is not a
job, and nothing is said of it. The function must be a module-level ``def`` of the scanned tree,
named directly or by its import path as a string (``"pkg.mod.fn"``); anything else is a located
``dynamic-registration`` entry.

Each site gives a row; :func:`merge_enqueued` makes one row per function out of them once every
file is scanned (:mod:`.enqueued`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from ..ledger.model import Job, Pattern, Unsupported
from .advice import compose, fitted, short
from .arguments import Argument, CallArguments, read
from .frameworks.enqueue import (
    ENQUEUE_WORDS,
    ENQUEUED,
    GET_QUEUE,
    METHODS,
    QUEUE,
    QUEUE_MAKERS,
    SCHEDULER,
)
from .matching import Match
from .records import CallSite, FunctionInfo, ModuleSummary
from .refs import MAX_DEPTH
from .resolve import ProjectIndex
from .rows import RowBuilder, Scope
from .values import source_text


@dataclass(frozen=True)
class _Maker:
    """The call that made the receiver (``Queue("high")``) and what it is."""

    summary: ModuleSummary
    call: cst.Call
    key: str


@dataclass
class Enqueues:
    """Judges call sites whose callee ends in an enqueueing word."""

    index: ProjectIndex
    rows: RowBuilder

    def site(self, summary: ModuleSummary, site: CallSite) -> Iterator[Job | Unsupported]:
        func = site.call.func
        word = func.attr.value if isinstance(func, cst.Attribute) else None
        if isinstance(func, cst.Name):
            word = func.value
        if word not in ENQUEUE_WORDS:
            return
        found = self._method(summary, func)
        if found is None:
            return
        key, maker, shown = found
        method = METHODS[key]
        positional = [arg for arg in site.call.args if not arg.keyword and not arg.star]
        keywords = {arg.keyword.value: arg for arg in site.call.args if arg.keyword}
        handed: cst.BaseExpression | None = None
        if method.keyword is not None and method.keyword in keywords:
            handed = keywords[method.keyword].value
        elif method.position is not None and len(positional) > method.position:
            handed = positional[method.position].value
        if handed is None:
            return
        target = self._function(summary, handed)
        if target is None:
            path = summary.source.rel_path
            yield Unsupported(
                path,
                site.line,
                Pattern.DYNAMIC_REGISTRATION,
                compose(
                    f"{shown}({short(source_text(handed))}, ...) enqueues an RQ job that is not a "
                    "module-level function of the scanned tree",
                    fitted(
                        path,
                        Pattern.DYNAMIC_REGISTRATION,
                        "A lambda, a method or a local function cannot be named as a job: "
                        "enqueue a module-level def (or its import path as a string)",
                    ),
                ),
            )
            return
        owner, function = target
        arguments = CallArguments()
        if maker is not None:
            queue = _queue_argument(self.index, maker)
            if queue is not None:
                arguments.keywords["queue_name"] = queue
        scope = Scope(self.index, summary)
        for index, arg in enumerate(positional[: len(method.leading)]):
            arguments.keywords[method.leading[index]] = Argument(arg.value, scope)
        reserved = [
            arg
            for arg in site.call.args
            if arg.keyword is not None and arg.keyword.value in method.reserved
        ]
        arguments.add(reserved, scope)
        match = Match("rq", ENQUEUED, shown)
        yield self.rows.build(owner, function, summary, site.line, match, read(ENQUEUED, arguments))

    def _method(
        self, summary: ModuleSummary, func: cst.BaseExpression
    ) -> tuple[str, _Maker | None, str] | None:
        """The method's key, the call that made its receiver (when it can be read), and the
        method as the row shows it."""
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Call):
            maker = self._maker(summary, func.value)
            if maker is None:
                return None
            key = f"{maker.key}().{func.attr.value}"
            return (key, maker, f"{maker.key}(...).{func.attr.value}") if key in METHODS else None
        ref = self.index.resolve_expr(summary, func)
        if ref is None or ref.refusal is not None or ref.key not in METHODS:
            return None
        receiver = func.value if isinstance(func, cst.Attribute) else None
        maker = self._origin(summary, receiver, 0) if receiver is not None else None
        return ref.key, maker, ref.qualname

    def _maker(self, summary: ModuleSummary, call: cst.Call) -> _Maker | None:
        call = self.index.unchained(call)
        ref = self.index.resolve_expr(summary, call.func)
        key = self.index.instance_key(ref) if ref is not None and ref.refusal is None else None
        return _Maker(summary, call, key) if key in QUEUE_MAKERS and key is not None else None

    def _origin(
        self, summary: ModuleSummary, node: cst.BaseExpression, depth: int
    ) -> _Maker | None:
        """The call a receiver name is bound to, followed through assignments and imports."""
        if depth > MAX_DEPTH:
            return None
        if isinstance(node, cst.Call):
            return self._maker(summary, node)
        if isinstance(node, cst.Attribute):
            base = self.index.resolve_expr(summary, node.value)
            if base is not None and base.is_module and base.module is not None:
                return self._origin(base.module, cst.Name(node.attr.value), depth + 1)
            return None
        if not isinstance(node, cst.Name):
            return None
        bindings = summary.bindings.get(node.value, [])
        if len(bindings) != 1:
            return None
        binding = bindings[0]
        if binding.kind == "assign" and binding.value is not None:
            return self._origin(summary, binding.value, depth + 1)
        if binding.kind == "import" and binding.target:
            module, _, name = binding.target.rpartition(".")
            owner = self.index.summary_for_module(module) if module else None
            if owner is not None:
                return self._origin(owner, cst.Name(name), depth + 1)
        return None

    def _function(
        self, summary: ModuleSummary, node: cst.BaseExpression
    ) -> tuple[ModuleSummary, FunctionInfo] | None:
        return module_function(self.index, summary, node)


def module_function(
    index: ProjectIndex, summary: ModuleSummary, node: cst.BaseExpression
) -> tuple[ModuleSummary, FunctionInfo] | None:
    """The module-level def ``node`` names, directly or as an import path string (RQ, arq and
    rq-scheduler all import a job by its path)."""
    if isinstance(node, cst.SimpleString):
        path = node.evaluated_value
        if not isinstance(path, str) or "." not in path:
            return None
        ref = index.follow(path)
    elif isinstance(node, (cst.Name, cst.Attribute)):
        ref = index.resolve_expr(summary, node)
    else:
        return None
    if ref is None or ref.refusal is not None or ref.function is None or ref.module is None:
        return None
    if "." in ref.function.qualpath:
        return None  # a method: the job is its class's, which cannot be imported by path
    return ref.module, ref.function


def _queue_argument(index: ProjectIndex, maker: _Maker) -> Argument | None:
    """The queue name the receiver was made with: ``Queue(name)``, ``get_queue(name)``, or a
    scheduler's ``queue_name=`` (else the name of the queue it was given)."""
    scope = Scope(index, maker.summary)
    args = maker.call.args
    keywords = {arg.keyword.value: arg.value for arg in args if arg.keyword}
    positional = [arg.value for arg in args if not arg.keyword and not arg.star]
    if maker.key == SCHEDULER:
        if "queue_name" in keywords:
            return Argument(keywords["queue_name"], scope)
        return None
    if maker.key in (QUEUE, GET_QUEUE):
        if "name" in keywords:
            return Argument(keywords["name"], scope)
        if positional:
            return Argument(positional[0], scope)
    return None
