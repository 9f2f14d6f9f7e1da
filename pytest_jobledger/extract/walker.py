"""One pass over a module's statements: what its module-level names are bound to, and every place
that could register a job (decorated definitions, calls, classes), each with its context (the
records it fills are in :mod:`.records`).

Nothing here decides what a job is; that needs names resolved across modules (``resolve.py``) and a
framework's rules (``frameworks/``). Keeping this pass dumb keeps it one walk per file.

Speed: libcst's generic visitor and its PositionProvider each cost more than the parse itself, so
this walks statements directly and reads line numbers from Python's own C parser (``ast``, which
only parses, never runs), walking both trees in step and checking they agree node for node. If
they ever disagree, or ``ast`` cannot read the file, it falls back to libcst's PositionProvider.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from .discovery import SourceFile
from .expressions import Expressions, own_params
from .records import (
    AttributeAssign,
    Binding,
    ClassInfo,
    Context,
    DecoratorSite,
    FunctionInfo,
    ModuleSummary,
    Reference,
    dotted_name,
    first_statement,
    replace_context,
)
from .scopes import (
    OTHER,
    LocalBinding,
    Scope,
    bind_local,
    bind_statement,
    function_scope,
    import_target,
    names_read,
    returned_values,
)


def summarize(
    source: SourceFile, module: cst.Module, tree: ast.Module | None = None
) -> ModuleSummary:
    """The module's summary; ``tree`` is CPython's parse of the same text, read for lines."""
    if tree is not None:
        found = summarize_strict(source, module, tree)
        if found is not None:
            return found
    summary = ModuleSummary(source=source)
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    _Walker(summary, positions).block(module.body, None, Context())
    return summary


def summarize_strict(
    source: SourceFile, module: cst.Module, tree: ast.Module
) -> ModuleSummary | None:
    """The summary with every line read from ``tree`` (``module`` may be reduced text whose own
    lines differ: :mod:`.reduce`), or ``None`` when the two trees disagree."""
    summary = ModuleSummary(source=source)
    try:
        _Walker(summary, None).block(module.body, tree.body, Context())
    except _Misaligned:
        return None
    return summary


def twin_tree(data: bytes) -> ast.Module | None:
    """Python's own parse of the same bytes, used only for line numbers (it runs nothing)."""
    try:
        return ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


class _Misaligned(Exception):
    """The libcst and ast trees disagree; line numbers are taken from libcst instead."""


_AST_FOR: dict[type[cst.CSTNode], tuple[type[ast.AST], ...]] = {
    cst.FunctionDef: (ast.FunctionDef, ast.AsyncFunctionDef),
    cst.ClassDef: (ast.ClassDef,),
    cst.If: (ast.If,),
    cst.For: (ast.For, ast.AsyncFor),
    cst.While: (ast.While,),
    cst.With: (ast.With, ast.AsyncWith),
    cst.Try: (ast.Try,),
    cst.Assign: (ast.Assign,),
    cst.AnnAssign: (ast.AnnAssign,),
    cst.AugAssign: (ast.AugAssign,),
    cst.Expr: (ast.Expr,),
    cst.Return: (ast.Return,),
    cst.Import: (ast.Import,),
    cst.ImportFrom: (ast.ImportFrom,),
    cst.Global: (ast.Global,),
    cst.Del: (ast.Delete,),
}
if hasattr(ast, "TryStar"):  # Python 3.11+
    _AST_FOR[cst.TryStar] = (ast.TryStar,)
if hasattr(ast, "Match"):
    _AST_FOR[cst.Match] = (ast.Match,)


def _flatten(body: Sequence[cst.CSTNode]) -> list[cst.CSTNode]:
    flat: list[cst.CSTNode] = []
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            flat.extend(statement.body)
        else:
            flat.append(statement)
    return flat


def _suite(body: cst.BaseSuite) -> Sequence[cst.CSTNode]:
    return body.body


class _Walker(Expressions):
    """Walks statements (not every expression node) of a libcst tree, optionally in step with the
    ``ast`` tree of the same source for line numbers."""

    def __init__(self, summary: ModuleSummary, positions: object | None) -> None:
        self.summary = summary
        self.positions = positions

    # -- lines -------------------------------------------------------------------------------

    def _line(self, node: cst.CSTNode, twin: ast.AST | None) -> int:
        if twin is not None:
            return int(getattr(twin, "lineno", 1))
        if self.positions is None:
            raise _Misaligned
        position = self.positions[node]  # type: ignore[index]
        return int(position.start.line)

    def block(
        self, body: Sequence[cst.CSTNode], twins: Sequence[ast.stmt] | None, context: Context
    ) -> None:
        flat = _flatten(body)
        if twins is not None and len(twins) != len(flat):
            raise _Misaligned
        for index, statement in enumerate(flat):
            twin = twins[index] if twins is not None else None
            if twin is not None:
                expected = _AST_FOR.get(type(statement))
                if expected is not None and not isinstance(twin, expected):
                    raise _Misaligned
            self.statement(statement, twin, context)

    def statement(self, node: cst.CSTNode, twin: ast.stmt | None, context: Context) -> None:
        at_module = not context.in_function and not context.classes
        if isinstance(node, cst.FunctionDef):
            self.function(node, twin, context)
        elif isinstance(node, cst.ClassDef):
            self.klass(node, twin, context)
        elif isinstance(node, cst.If):
            self.if_chain(node, twin, context)
        elif isinstance(node, cst.For):
            if at_module:
                self._bind_target(node.target, self._line(node, twin))
            else:
                bind_local(node.target, context.scope)
            self._bodies(node, twin, replace_context(context, in_loop=True))
        elif isinstance(node, cst.While):
            self._bodies(node, twin, replace_context(context, in_loop=True))
        elif isinstance(node, cst.With):
            if at_module:
                line = self._line(node, twin)
                for item in node.items:
                    if item.asname is not None:
                        self._bind_target(item.asname.name, line)
            else:
                for item in node.items:
                    if item.asname is not None:
                        bind_local(item.asname.name, context.scope)
            self._bodies(node, twin, context)
        elif isinstance(node, (cst.Try, cst.TryStar)):
            self.try_statement(node, twin, context)
        elif isinstance(node, cst.Match):
            cases = getattr(twin, "cases", None)
            if cases is not None and len(cases) != len(node.cases):
                raise _Misaligned
            for index, case in enumerate(node.cases):
                self.block(_suite(case.body), cases[index].body if cases else None, context)
        else:
            self.small(node, twin, context, at_module)

    def _bodies(
        self, node: cst.For | cst.While | cst.With, twin: ast.stmt | None, context: Context
    ) -> None:
        self.block(_suite(node.body), getattr(twin, "body", None), context)
        orelse = getattr(node, "orelse", None)
        if orelse is not None:
            self.block(_suite(orelse.body), getattr(twin, "orelse", None), context)

    def if_chain(self, node: cst.If, twin: ast.stmt | None, context: Context) -> None:
        """An ``if``/``elif``/``else`` chain, walked as a loop: libcst nests each ``elif`` in
        the one before, and a long chain must not cost a Python frame per branch."""
        current: cst.If | None = node
        while current is not None:
            self.block(_suite(current.body), getattr(twin, "body", None), context)
            orelse = current.orelse
            twin_else = getattr(twin, "orelse", None)
            current = None
            if isinstance(orelse, cst.If):
                if twin_else is not None and (
                    len(twin_else) != 1 or not isinstance(twin_else[0], ast.If)
                ):
                    raise _Misaligned
                current, twin = orelse, (twin_else[0] if twin_else else None)
            elif isinstance(orelse, cst.Else):
                self.block(_suite(orelse.body), twin_else, context)

    def try_statement(
        self, node: cst.Try | cst.TryStar, twin: ast.stmt | None, context: Context
    ) -> None:
        self.block(_suite(node.body), getattr(twin, "body", None), context)
        handlers = getattr(twin, "handlers", None)
        if handlers is not None and len(handlers) != len(node.handlers):
            raise _Misaligned
        at_module = not context.in_function and not context.classes
        own: Sequence[cst.ExceptHandler | cst.ExceptStarHandler] = node.handlers
        for index, handler in enumerate(own):
            twin_handler = handlers[index] if handlers is not None else None
            if at_module and handler.name is not None:
                self._bind_target(handler.name.name, self._line(handler, twin_handler))
            elif handler.name is not None:
                bind_local(handler.name.name, context.scope)
            self.block(_suite(handler.body), getattr(twin_handler, "body", None), context)
        if node.orelse is not None:
            self.block(_suite(node.orelse.body), getattr(twin, "orelse", None), context)
        if node.finalbody is not None:
            self.block(_suite(node.finalbody.body), getattr(twin, "finalbody", None), context)

    # -- definitions -------------------------------------------------------------------------

    def _decorators(
        self,
        node: cst.FunctionDef | cst.ClassDef,
        twin: ast.stmt | None,
        target: FunctionInfo | ClassInfo,
        context: Context,
    ) -> None:
        twin_decorators = getattr(twin, "decorator_list", None)
        if twin_decorators is not None and len(twin_decorators) != len(node.decorators):
            raise _Misaligned
        reads = names_read(node) if context.in_function and node.decorators else frozenset()
        for index, decorator in enumerate(node.decorators):
            twin_decorator = twin_decorators[index] if twin_decorators is not None else None
            line = self._line(decorator, twin_decorator)
            self.summary.decorated.append(
                DecoratorSite(decorator.decorator, line, target, context, reads)
            )
            self._decorator_references(decorator.decorator, line, context, target.name)

    def _decorator_references(
        self, expression: cst.BaseExpression, line: int, context: Context, target: str
    ) -> None:
        """A decorator the sites do not follow (``@[app.task][0]``, ``@wrap(app.task)``) may
        still apply a job decorator: the names in it are references (see :class:`Reference`)."""
        while isinstance(expression, cst.NamedExpr):
            # ``@(t := app.task(...))`` applies what it names: that is a job decorator used in
            # a shape the sites do not follow, reported as such (never silent)
            expression = expression.value
            inner = expression.func if isinstance(expression, cst.Call) else expression
            if isinstance(inner, (cst.Name, cst.Attribute)):
                self.summary.references.append(Reference(inner, line, context, target))
        callee = expression.func if isinstance(expression, cst.Call) else expression
        if not isinstance(callee, (cst.Name, cst.Attribute)):
            self._value(expression, line, context, target)
            return
        if isinstance(expression, cst.Call):
            for arg in expression.args:
                if isinstance(arg.value, (cst.Name, cst.Attribute)):  # data, not the decorator
                    self.summary.references.append(Reference(arg.value, line, context))

    def function(self, node: cst.FunctionDef, twin: ast.stmt | None, context: Context) -> None:
        if twin is not None and getattr(twin, "name", None) != node.name.value:
            raise _Misaligned
        name = node.name.value
        line = self._line(node.name, twin)
        qualpath = ".".join([*context.classes, name]) if not context.in_function else name
        info = FunctionInfo(name, qualpath, line, node.params, first_statement(node.body))
        if not context.in_function:
            self.summary.functions.setdefault(qualpath, info)
        if not context.in_function and not context.classes:
            self.summary.bind(name, Binding("def", line))
        elif context.scope is not None:
            nested = node if context.scope.kind == "function" else None
            context.scope.bind(name, LocalBinding("def", node=nested))
        self._decorators(node, twin, info, context)
        own = own_params(node.params)
        scope = function_scope(own, context.scope)
        inner = replace_context(
            context,
            in_function=(*context.in_function, qualpath if not context.in_function else name),
            params=context.params | {param.name.value for param in own},
            scope=scope,
        )
        self.block(_suite(node.body), getattr(twin, "body", None), inner)
        if not context.in_function and not context.classes and scope.returns:
            self.summary.returns.setdefault(qualpath, returned_values(scope))
        for rebound in sorted(scope.rebound_globals):
            self.summary.bind(rebound, Binding("other", scope.declared_global[rebound]))

    def klass(self, node: cst.ClassDef, twin: ast.stmt | None, context: Context) -> None:
        if twin is not None and getattr(twin, "name", None) != node.name.value:
            raise _Misaligned
        name = node.name.value
        line = self._line(node.name, twin)
        attributes: dict[str, cst.BaseExpression] = {}
        lines: dict[str, int] = {}
        body = _flatten(_suite(node.body))
        twins = getattr(twin, "body", None)
        if twins is not None and len(twins) != len(body):
            raise _Misaligned
        for index, statement in enumerate(body):
            attribute: str | None = None
            if isinstance(statement, cst.Assign) and len(statement.targets) == 1:
                target = statement.targets[0].target
                if isinstance(target, cst.Name):
                    attribute = target.value
            elif (
                isinstance(statement, cst.AnnAssign)
                and statement.value is not None
                and isinstance(statement.target, cst.Name)
            ):
                attribute = statement.target.value
            if attribute is not None:
                assert isinstance(statement, (cst.Assign, cst.AnnAssign))
                assert statement.value is not None
                attributes[attribute] = statement.value
                lines[attribute] = self._line(statement, twins[index] if twins else None)
        qualpath = ".".join([*context.classes, name]) if not context.in_function else name
        info = ClassInfo(
            name=name,
            qualpath=qualpath,
            line=line,
            first_statement=first_statement(node.body),
            bases=tuple(arg.value for arg in node.bases if not arg.keyword and not arg.star),
            attributes=attributes,
            attribute_lines=lines,
        )
        if not context.in_function:
            self.summary.classes.setdefault(qualpath, info)
        if not context.in_function and not context.classes:
            self.summary.bind(name, Binding("class", line))
        elif context.scope is not None:
            context.scope.bind(name, OTHER)
        self._decorators(node, twin, info, context)
        inner = replace_context(
            context, classes=(*context.classes, name), scope=Scope("class", context.scope)
        )
        self.block(_suite(node.body), getattr(twin, "body", None), inner)

    # -- small statements --------------------------------------------------------------------

    def small(
        self, node: cst.CSTNode, twin: ast.stmt | None, context: Context, at_module: bool
    ) -> None:
        if not at_module and context.scope is not None:
            bind_statement(node, context.scope, self.summary.source.package)
        if context.in_function and _calls_retry(node):
            self.summary.retry_callers.add(context.in_function[0])
        if isinstance(node, cst.Import):
            if at_module:
                self.import_names(node, self._line(node, twin))
        elif isinstance(node, cst.ImportFrom):
            if at_module:
                self.import_from(node, self._line(node, twin))
        elif isinstance(node, cst.Assign):
            line = self._line(node, twin)
            if at_module:
                for target in node.targets:
                    if isinstance(target.target, cst.Name):
                        self.summary.bind(
                            target.target.value, Binding("assign", line, value=node.value)
                        )
                    else:
                        self._bind_target(target.target, line)
                        if isinstance(target.target, cst.Attribute):
                            self.summary.attribute_assigns.append(
                                AttributeAssign(target.target, node.value, line)
                            )
            self._assigned(node.value, line, context, at_module)
        elif isinstance(node, cst.AnnAssign):
            if node.value is None:
                return
            line = self._line(node, twin)
            if at_module and isinstance(node.target, cst.Name):
                self.summary.bind(node.target.value, Binding("assign", line, value=node.value))
            self._assigned(node.value, line, context, at_module)
        elif isinstance(node, cst.AugAssign):
            line = self._line(node, twin)
            if at_module:
                self._bind_target(node.target, line)
            self._value(node.value, line, context)
        elif isinstance(node, cst.Expr):
            self.calls(node.value, self._line(node, twin), context)
        elif isinstance(node, cst.Return):
            if node.value is not None:
                self._value(node.value, self._line(node, twin), context)
                if context.scope is not None and context.scope.kind == "function":
                    context.scope.returns.append(node.value)
        elif isinstance(node, cst.Del):
            if at_module:
                self._bind_target(node.target, self._line(node, twin))
        elif isinstance(node, cst.Global) and context.scope is not None:
            line = self._line(node, twin)
            for item in node.names:  # bound at module level if the scope assigns it
                context.scope.declared_global.setdefault(item.name.value, line)

    def import_names(self, node: cst.Import, line: int) -> None:
        for alias in node.names:
            full = dotted_name(alias.name)
            if full is None:
                continue
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.summary.bind(alias.asname.name.value, Binding("import", line, target=full))
            else:
                head = full.split(".")[0]
                self.summary.bind(head, Binding("import", line, target=head))

    def import_from(self, node: cst.ImportFrom, line: int) -> None:
        base = import_target(node, self.summary.source.package)
        if isinstance(node.names, cst.ImportStar):
            if base:
                self.summary.star_imports.append(base)
            return
        for alias in node.names:
            if not isinstance(alias.name, cst.Name):
                continue
            imported = alias.name.value
            local = imported
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            if base is None:  # climbs above the top-level package: an import with no target
                self.summary.bind(local, Binding("import", line))
            else:
                target = f"{base}.{imported}" if base else imported
                self.summary.bind(local, Binding("import", line, target=target))

    def _bind_target(self, target: cst.BaseExpression, line: int) -> None:
        if isinstance(target, cst.Name):
            self.summary.bind(target.value, Binding("other", line))
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._bind_target(element.value, line)
        elif isinstance(target, cst.StarredElement):
            self._bind_target(target.value, line)

    # -- calls -------------------------------------------------------------------------------


def _calls_retry(node: cst.CSTNode) -> bool:
    """``self.retry(...)``, ``raise self.retry(...)`` or ``return self.retry(...)``: the shapes
    Celery documents for an explicit retry (any name before ``.retry``: a bound task's first
    parameter is not always called ``self``)."""
    value: cst.BaseExpression | None = None
    if isinstance(node, (cst.Expr, cst.Return)):
        value = node.value
    elif isinstance(node, cst.Raise):
        value = node.exc
    return (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and value.func.attr.value == "retry"
        and isinstance(value.func.value, cst.Name)
    )
