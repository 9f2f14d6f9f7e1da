"""What one walk over a module records: its module-level bindings and every place that could
register a job, each with its context. Plain records; the walk itself is in :mod:`.walker`."""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from .discovery import SourceFile
from .scopes import LocalBinding as LocalBinding
from .scopes import Scope
from .scopes import dotted_name as dotted_name


@dataclass(frozen=True)
class Binding:
    """One statement that binds a module-level name.

    ``kind`` is ``import`` (``target`` is the dotted name imported, ``None`` for a relative import
    that climbs above the top-level package), ``assign`` (``value`` is the expression), ``def``,
    ``class`` or ``other`` (any other rebinding: loops, ``global``, ``del``…).
    """

    kind: str
    line: int
    target: str | None = None
    value: cst.BaseExpression | None = None


@dataclass(frozen=True)
class Context:
    """Where a registration sits: it is only followable at module level (or in a class body)."""

    in_function: tuple[str, ...] = ()
    in_loop: bool = False
    classes: tuple[str, ...] = ()
    #: The parameter names of the enclosing functions: inside a declared decorator, a
    #: registration of one of them (``shared_task(fn)``) registers the function it decorates.
    params: frozenset[str] = frozenset()
    #: The innermost scope that is not the module's (``None`` at module level): a name bound
    #: there shadows the module's name of the same spelling.
    scope: Scope | None = field(default=None, compare=False, hash=False)

    def local(self, name: str) -> list[LocalBinding] | None:
        """The local bindings of ``name`` here, or ``None`` when it is the module's name."""
        return None if self.scope is None else self.scope.lookup(name)


def _docstring_of(first: cst.CSTNode | None) -> str | None:
    """The docstring a body starting with ``first`` has (read the way libcst reads a module's)."""
    if not isinstance(first, cst.SimpleStatementLine):
        return None
    module = cst.Module(body=[first])
    try:
        return module.get_docstring(clean=True)
    except (SyntaxError, ValueError):
        pass
    # A NUL byte in the literal: libcst parses it, ``ast.literal_eval`` (inside libcst) refuses
    # it. The text is kept with each NUL written as ``\x00``, as a reviewer would want to see it.
    code = module.code
    if "\x00" not in code:
        return None
    hole = next(chr(c) for c in range(0xE000, 0xF900) if chr(c) not in code)
    try:
        text = cst.parse_module(code.replace("\x00", hole)).get_docstring(clean=True)
    except (cst.ParserSyntaxError, SyntaxError, ValueError):
        return None
    return None if text is None else text.replace(hole, "\\x00")


def first_statement(body: cst.BaseSuite) -> cst.CSTNode | None:
    if isinstance(body, cst.IndentedBlock):
        return body.body[0] if body.body else None
    if isinstance(body, cst.SimpleStatementSuite) and body.body:
        return cst.SimpleStatementLine(body=body.body)
    return None


@dataclass(frozen=True)
class FunctionInfo:
    """A function definition, holding only what extraction reads (not its body), so a parsed
    module's tree can be freed once it is summarised."""

    name: str
    qualpath: str
    line: int
    params: cst.Parameters
    first_statement: cst.CSTNode | None

    def docstring(self) -> str | None:
        """Read only for jobs: decoding every function's docstring would cost more than the walk."""
        return _docstring_of(self.first_statement)


@dataclass(frozen=True)
class ClassInfo:
    name: str
    qualpath: str
    line: int
    first_statement: cst.CSTNode | None
    bases: tuple[cst.BaseExpression, ...]
    attributes: dict[str, cst.BaseExpression]
    #: The line of each attribute's assignment (arq's ``functions = [...]`` is a job's place).
    attribute_lines: dict[str, int] = field(default_factory=dict)

    def docstring(self) -> str | None:
        return _docstring_of(self.first_statement)


@dataclass(frozen=True)
class DecoratorSite:
    """``@decorator`` on a function or class; ``line`` is the ``@`` line."""

    decorator: cst.BaseExpression
    line: int
    target: FunctionInfo | ClassInfo
    context: Context
    #: For a def nested in a function: the names its body reads (a declared decorator's inner
    #: ``runner`` that calls ``fn`` wraps the function it decorates).
    reads: frozenset[str] = frozenset()


@dataclass(frozen=True)
class CallSite:
    """A call that might be a call-style registration (``app.task(fn)``, ``register_task(X())``)."""

    call: cst.Call
    line: int
    context: Context


@dataclass(frozen=True)
class Reference:
    """A name used as a value (``map(app.task, fns)``, ``[app.task][0]``, ``return app.task``,
    ``getattr(app, "task")``): if it names a job decorator, the registration it makes cannot be
    followed, and it is reported rather than silently missed. ``target`` is the decorated
    function's name when the reference sits in a decorator expression."""

    node: cst.BaseExpression
    line: int
    context: Context
    target: str | None = None


@dataclass(frozen=True)
class AttributeAssign:
    """``a.b.c = value`` at module level (Celery's ``app.conf.task_routes = {...}``)."""

    target: cst.Attribute
    value: cst.BaseExpression
    line: int


@dataclass
class ModuleSummary:
    source: SourceFile
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    star_imports: list[str] = field(default_factory=list)
    decorated: list[DecoratorSite] = field(default_factory=list)
    calls: list[CallSite] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    attribute_assigns: list[AttributeAssign] = field(default_factory=list)
    functions: dict[str, FunctionInfo] = field(default_factory=dict)
    #: What each module-level function returns (:func:`.scopes.returned_values`): an app
    #: factory's app, read by :meth:`.resolve.ProjectIndex.made_by`.
    returns: dict[str, tuple[cst.BaseExpression | None, ...]] = field(default_factory=dict)
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    #: The identifiers of the function bodies not parsed (:mod:`.reduce`): were one of them
    #: relevant, the module would have to be parsed again.
    blanked: frozenset[str] = frozenset()
    #: Top-level functions and methods (by qualpath) whose body calls ``<name>.retry(...)`` as a
    #: statement, returned or raised: Celery's ``self.retry()``, which ``max_retries`` bounds.
    retry_callers: set[str] = field(default_factory=set)

    def bind(self, name: str, binding: Binding) -> None:
        self.bindings.setdefault(name, []).append(binding)


def replace_context(
    context: Context,
    *,
    in_function: tuple[str, ...] | None = None,
    in_loop: bool | None = None,
    classes: tuple[str, ...] | None = None,
    params: frozenset[str] | None = None,
    scope: Scope | None = None,
) -> Context:
    return Context(
        in_function=context.in_function if in_function is None else in_function,
        in_loop=context.in_loop if in_loop is None else in_loop,
        classes=context.classes if classes is None else classes,
        params=context.params if params is None else params,
        scope=context.scope if scope is None else scope,
    )


def head_name(node: cst.BaseExpression) -> str | None:
    """``a`` of ``a.b.c``: the name a dotted chain starts from, else ``None``."""
    while isinstance(node, cst.Attribute):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None
