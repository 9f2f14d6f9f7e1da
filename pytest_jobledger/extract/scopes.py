"""The names a function, class body, lambda or comprehension binds, as Python's scoping rules read
them, so a place inside one is judged by what its names are bound to there, never by how they are
spelled: a parameter, local or comprehension variable named ``task`` is not the module's ``task``
decorator, and ``from .celery import app`` in a function body makes that body's ``app`` the app.

The walker (:mod:`.walker`) fills one :class:`Scope` per function as it walks the function's
statements; the places are judged after the walk, when every scope is complete.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst


@dataclass(frozen=True)
class LocalBinding:
    """One binding of a name inside a function, class body or comprehension: ``param``,
    ``import`` (``target`` is the dotted name imported), ``def`` (``node``: a def nested in a
    function, whose body a declared wrapper's call form hands on) or ``other``."""

    kind: str
    target: str | None = None
    node: cst.FunctionDef | None = None
    #: What a plain ``name = value`` (or ``name: T = value``) assigns: what an app factory's
    #: returned local holds (:func:`returned_values`).
    value: cst.BaseExpression | None = None


@dataclass(eq=False)
class Scope:
    """The names one function, class body, lambda or comprehension binds, as Python's scoping
    rules read them: a name bound anywhere in a function is local in all of it, unless it is
    declared ``global`` (or ``nonlocal``: the enclosing function's). Filled during the walk and
    read when places are judged, after it, so a binding below a place counts too."""

    kind: str  # "function", "class" or "comprehension"
    parent: Scope | None = None
    names: dict[str, list[LocalBinding]] = field(default_factory=dict)
    #: ``global name`` declarations, by the line that declares them.
    declared_global: dict[str, int] = field(default_factory=dict)
    declared_nonlocal: set[str] = field(default_factory=set)
    #: The declared globals this scope assigns: module-level bindings (a ``global`` alone
    #: rebinds nothing).
    rebound_globals: set[str] = field(default_factory=set)
    #: The values of this function's own ``return`` statements (what an app factory returns).
    returns: list[cst.BaseExpression] = field(default_factory=list)

    def bind(self, name: str, binding: LocalBinding) -> None:
        if name in self.declared_global:
            self.rebound_globals.add(name)
        elif name not in self.declared_nonlocal:
            self.names.setdefault(name, []).append(binding)

    def lookup(self, name: str) -> list[LocalBinding] | None:
        """The local bindings ``name`` has where this scope reads it, or ``None`` when it is the
        module's name (or a builtin). A class body's names are seen only by the body itself,
        not by the functions and comprehensions inside it."""
        scope: Scope | None = self
        while scope is not None:
            if name in scope.declared_global:
                return None
            if (scope is self or scope.kind != "class") and name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def function(self) -> Scope:
        """Where an assignment expression binds: the nearest scope that is not a comprehension."""
        scope = self
        while scope.kind == "comprehension" and scope.parent is not None:
            scope = scope.parent
        return scope


def function_scope(params: list[cst.Param], parent: Scope | None) -> Scope:
    """A new function (or lambda) scope with its parameters bound."""
    scope = Scope("function", parent)
    for param in params:
        scope.bind(param.name.value, PARAM)
    return scope


def import_target(node: cst.ImportFrom, package: str) -> str | None:
    """The absolute module a ``from … import`` reads from, or ``None`` if it climbs too high."""
    module = dotted_name(node.module) if node.module is not None else ""
    level = len(node.relative)
    if level == 0:
        return module
    parts = package.split(".") if package else []
    if level - 1 >= len(parts):  # "beyond top-level package": Python refuses it too
        return None
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, module] if module else base)


def bind_statement(node: cst.CSTNode, scope: Scope, package: str) -> None:
    """The names a statement in a function or class body binds there (see :class:`Scope`)."""
    if isinstance(node, cst.Import):
        for alias in node.names:
            full = dotted_name(alias.name)
            if full is None:
                continue
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                scope.bind(alias.asname.name.value, LocalBinding("import", full))
            else:
                head = full.split(".")[0]
                scope.bind(head, LocalBinding("import", head))
    elif isinstance(node, cst.ImportFrom):
        if isinstance(node.names, cst.ImportStar):
            return
        base = import_target(node, package)
        for alias in node.names:
            if not isinstance(alias.name, cst.Name):
                continue
            local = alias.name.value
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            target = None if base is None else ".".join(filter(None, (base, alias.name.value)))
            scope.bind(local, LocalBinding("import", target))
    elif isinstance(node, cst.Assign):
        for assigned in node.targets:
            bind_in(assigned.target, scope, node.value)
    elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
        if isinstance(node, cst.AugAssign):
            bind_in(node.target, scope)
        elif node.value is not None:
            bind_in(node.target, scope, node.value)
    elif isinstance(node, cst.Del):
        bind_in(node.target, scope)
    elif isinstance(node, cst.Nonlocal):
        scope.declared_nonlocal.update(item.name.value for item in node.names)


PARAM = LocalBinding("param")
OTHER = LocalBinding("other")


def bind_in(
    target: cst.BaseExpression, scope: Scope, value: cst.BaseExpression | None = None
) -> None:
    """The names an assignment target binds in ``scope`` (an attribute or item binds none);
    ``value``: what a plain name target is assigned."""
    if isinstance(target, cst.Name):
        scope.bind(target.value, OTHER if value is None else LocalBinding("other", value=value))
    elif isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            bind_in(element.value, scope)
    elif isinstance(target, cst.StarredElement):
        bind_in(target.value, scope)


def bind_local(target: cst.BaseExpression, scope: Scope | None) -> None:
    if scope is not None:
        bind_in(target, scope)


def dotted_name(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else ``None``."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = dotted_name(node.value)
        return f"{head}.{node.attr.value}" if head is not None else None
    return None


def names_read(node: cst.FunctionDef | cst.ClassDef) -> frozenset[str]:
    """The names a nested definition's body reads; walked only for a def inside a function that
    a registration may wrap, which is rare, so the generic visitor's cost does not matter here."""
    found: set[str] = set()

    class _Collect(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

    node.body.visit(_Collect())
    return frozenset(found)


def returned_values(scope: Scope) -> tuple[cst.BaseExpression | None, ...]:
    """What a module-level function returns, for an app factory (``def make_app(): app =
    Celery(...); ...; return app``), from its scope as the walk filled it: each ``return`` value,
    a returned local name replaced by every value it is assigned, and ``None`` for each way it
    is bound that holds no provable value (a parameter, a loop, ``with``, ``:=``, an import...).
    A name the function does not bind is the module's, kept as written."""
    found: list[cst.BaseExpression | None] = []
    for value in scope.returns:
        bindings = scope.lookup(value.value) if isinstance(value, cst.Name) else None
        if bindings is None:
            found.append(value)
        else:
            found.extend(binding.value for binding in bindings)
    return tuple(found)
