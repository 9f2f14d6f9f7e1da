"""The expression half of the statement walk (:mod:`.walker`): the calls that may register a job
and the names used as values (:class:`~.records.Reference`) inside an expression, in the shapes
registrations take, with the scopes a comprehension or lambda opens (:mod:`.scopes`)."""

from __future__ import annotations

import libcst as cst

from .records import CallSite, Context, ModuleSummary, Reference, dotted_name, replace_context
from .scopes import Scope, bind_in, bind_local, function_scope

#: Methods that may take the function by keyword only (``register_task``; RQ's
#: ``enqueue_call(func=fn)``, rq-scheduler's ``schedule(..., func=fn)``): kept at module level.
#: Celery's ``app.conf.update(task_routes=...)`` too (:mod:`.celery_config`).
_BY_KEYWORD = frozenset({"register_task", "enqueue_call", "schedule", "cron", "update"})


class Expressions:
    """Mixed into the walker: it records into ``summary``."""

    summary: ModuleSummary

    def _assigned(
        self, value: cst.BaseExpression, line: int, context: Context, at_module: bool
    ) -> None:
        """An assigned value. At module level ``alias = app.task`` and ``job = partial(rq_job,
        ...)`` are aliases the resolver follows, so those names are not references."""
        if not at_module:
            self._value(value, line, context)
        elif not isinstance(value, (cst.Name, cst.Attribute)):
            self.calls(value, line, context, alias=True)

    def _value(
        self, node: cst.BaseExpression, line: int, context: Context, target: str | None = None
    ) -> None:
        """An expression whose value is used: a bare name is a reference, anything else is
        walked for calls and the references inside it."""
        if isinstance(node, (cst.Name, cst.Attribute)):
            self.summary.references.append(Reference(node, line, context, target))
        else:
            self.calls(node, line, context, target)

    def _getattr(self, node: cst.Call, line: int, context: Context, target: str | None) -> None:
        """``getattr(app, "task")`` is ``app.task``: recorded as that reference."""
        if len(node.args) < 2 or any(arg.keyword or arg.star for arg in node.args[:2]):
            return
        owner, attribute = node.args[0].value, node.args[1].value
        if not isinstance(owner, (cst.Name, cst.Attribute)):
            return
        if not isinstance(attribute, cst.SimpleString) or attribute.prefix.lower() not in ("", "u"):
            return
        try:
            text = attribute.evaluated_value
        except (ValueError, SyntaxError, MemoryError):  # a raw NUL byte: no attribute's name
            return
        if not isinstance(text, str) or not text.isidentifier():
            return
        synthetic = cst.Attribute(value=owner, attr=cst.Name(text))
        self.summary.references.append(Reference(synthetic, line, context, target))

    def calls(
        self,
        node: cst.BaseExpression,
        line: int,
        context: Context,
        target: str | None = None,
        *,
        alias: bool = False,
    ) -> None:
        """Calls that may register a job, in the shapes registrations take: the statement's own
        value, calls nested in calls, and elements of literals and comprehensions (a
        comprehension is a loop). Lines of nested calls are the statement's line. Inside a
        function a call of keywords only is kept too: a wrapper's body may hand its keywords to
        a framework decorator (``return shared_task(queue=queue, **options)``)."""
        if isinstance(node, cst.Call):
            func = node.func.func if isinstance(node.func, cst.Call) else node.func
            if isinstance(func, (cst.Name, cst.Attribute)):
                has_positional = any(not arg.keyword and not arg.star for arg in node.args)
                registers = isinstance(func, cst.Attribute) and func.attr.value in _BY_KEYWORD
                if has_positional or registers or context.in_function:
                    self.summary.calls.append(CallSite(node, line, context))
            if isinstance(func, cst.Name) and func.value == "getattr":
                self._getattr(node, line, context, target)
            if not isinstance(node.func, (cst.Name, cst.Attribute)):
                self.calls(node.func, line, context, target)
            # the decorator ``functools.partial`` wraps at module level is an alias (resolve.py)
            skip = alias and dotted_name(node.func) in ("partial", "functools.partial")
            for arg in node.args:
                if skip and not arg.keyword and not arg.star:
                    skip = False
                    if isinstance(arg.value, (cst.Name, cst.Attribute)):
                        continue
                self._value(arg.value, line, context, target)
        elif isinstance(node, (cst.List, cst.Tuple, cst.Set)):
            for element in node.elements:
                self._value(element.value, line, context, target)
        elif isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
            # a comprehension is a loop, and a scope: its variables shadow the enclosing names
            # everywhere in it but the first iterable, which the enclosing scope evaluates
            looped = replace_context(context, in_loop=True)
            inner = replace_context(looped, scope=Scope("comprehension", context.scope))
            clause: cst.CompFor | None = node.for_in
            outer = True
            while clause is not None:
                self._value(clause.iter, line, looped if outer else inner, target)
                bind_local(clause.target, inner.scope)
                outer = False
                clause = clause.inner_for_in
            self._value(node.value if isinstance(node, cst.DictComp) else node.elt, line, inner)
        elif isinstance(node, cst.Dict):
            for item in node.elements:
                self._value(item.value, line, context, target)
        elif isinstance(node, cst.Await):
            self.calls(node.expression, line, context, target)
        elif isinstance(node, cst.Subscript):
            self._value(node.value, line, context, target)
        elif isinstance(node, cst.IfExp):
            self._value(node.body, line, context, target)
            self._value(node.orelse, line, context, target)
        elif isinstance(node, cst.BooleanOperation):
            self._value(node.left, line, context, target)
            self._value(node.right, line, context, target)
        elif isinstance(node, cst.StarredElement):
            self._value(node.value, line, context, target)
        elif isinstance(node, cst.NamedExpr):
            if context.scope is not None:
                bind_in(node.target, context.scope.function())
            self._value(node.value, line, context, target)
        elif isinstance(node, cst.Lambda):
            inner = replace_context(
                context,
                in_function=(*context.in_function, "<lambda>"),
                scope=function_scope(own_params(node.params), context.scope),
            )
            self._value(node.body, line, inner, target)


def own_params(params: cst.Parameters) -> list[cst.Param]:
    own = [*params.posonly_params, *params.params, *params.kwonly_params]
    for extra in (params.star_arg, params.star_kwarg):
        if isinstance(extra, cst.Param):
            own.append(extra)
    return own
