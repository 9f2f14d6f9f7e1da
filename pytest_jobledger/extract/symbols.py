"""One pass over a module's syntax tree: what its module-level names are bound to, and every place
that could register a job (decorated definitions, calls, classes), each with its context.

Nothing here decides what a job is; that needs names resolved across modules (``resolve.py``) and a
framework's rules (``frameworks/``). Keeping this pass dumb keeps it one walk per file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from .discovery import SourceFile


@dataclass(frozen=True)
class Binding:
    """One statement that binds a module-level name.

    ``kind`` is ``import`` (``target`` is the dotted name imported), ``assign`` (``value`` is the
    expression), ``def``, ``class`` or ``other`` (any other rebinding: loops, ``global``, ``del``…).
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


@dataclass(frozen=True)
class FunctionInfo:
    name: str
    qualpath: str
    line: int
    docstring: str | None
    node: cst.FunctionDef


@dataclass(frozen=True)
class ClassInfo:
    name: str
    qualpath: str
    line: int
    docstring: str | None
    bases: tuple[cst.BaseExpression, ...]
    attributes: dict[str, cst.BaseExpression]


@dataclass(frozen=True)
class DecoratorSite:
    """``@decorator`` on a function or class; ``line`` is the ``@`` line."""

    decorator: cst.BaseExpression
    line: int
    target: FunctionInfo | ClassInfo
    context: Context


@dataclass(frozen=True)
class CallSite:
    """A call that might be a call-style registration (``app.task(fn)``, ``register_task(X())``)."""

    call: cst.Call
    line: int
    context: Context


@dataclass
class ModuleSummary:
    source: SourceFile
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    star_imports: list[str] = field(default_factory=list)
    decorated: list[DecoratorSite] = field(default_factory=list)
    calls: list[CallSite] = field(default_factory=list)
    functions: dict[str, FunctionInfo] = field(default_factory=dict)
    classes: dict[str, ClassInfo] = field(default_factory=dict)

    def bind(self, name: str, binding: Binding) -> None:
        self.bindings.setdefault(name, []).append(binding)


def summarize(source: SourceFile, module: cst.Module) -> ModuleSummary:
    summary = ModuleSummary(source=source)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    wrapper.visit(_Collector(summary))
    return summary


def dotted_name(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else ``None``."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = dotted_name(node.value)
        return f"{head}.{node.attr.value}" if head is not None else None
    return None


def _import_target(node: cst.ImportFrom, package: str) -> str | None:
    """The absolute module a ``from … import`` reads from, or ``None`` if it climbs too high."""
    module = dotted_name(node.module) if node.module is not None else ""
    level = len(node.relative)
    if level == 0:
        return module
    parts = package.split(".") if package else []
    if level - 1 > len(parts):
        return None
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, module] if module else base)


class _Collector(cst.CSTVisitor):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, summary: ModuleSummary) -> None:
        super().__init__()
        self.summary = summary
        self.functions: list[str] = []
        self.classes: list[str] = []
        self.loops = 0
        self.decorators = 0

    # -- helpers -----------------------------------------------------------------------------

    def _line(self, node: cst.CSTNode) -> int:
        return self.get_metadata(PositionProvider, node).start.line

    @property
    def _module_scope(self) -> bool:
        return not self.functions and not self.classes

    def _context(self) -> Context:
        return Context(
            in_function=tuple(self.functions), in_loop=self.loops > 0, classes=tuple(self.classes)
        )

    def _qualpath(self, name: str) -> str:
        return ".".join([*self.classes, name]) if not self.functions else name

    def _bind_target(self, target: cst.BaseExpression, line: int) -> None:
        if isinstance(target, cst.Name):
            self.summary.bind(target.value, Binding("other", line))
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._bind_target(element.value, line)
        elif isinstance(target, cst.StarredElement):
            self._bind_target(target.value, line)

    # -- scopes ------------------------------------------------------------------------------

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        name = node.name.value
        line = self._line(node.name)
        info = FunctionInfo(
            name=name,
            qualpath=self._qualpath(name),
            line=line,
            docstring=node.get_docstring(clean=True),
            node=node,
        )
        if not self.functions:
            self.summary.functions.setdefault(info.qualpath, info)
        if self._module_scope:
            self.summary.bind(name, Binding("def", line))
        context = self._context()
        for decorator in node.decorators:
            self.summary.decorated.append(
                DecoratorSite(decorator.decorator, self._line(decorator), info, context)
            )
        self.functions.append(info.qualpath if len(self.functions) == 0 else name)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.functions.pop()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self.functions.append("<lambda>")

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self.functions.pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        name = node.name.value
        line = self._line(node.name)
        attributes: dict[str, cst.BaseExpression] = {}
        if isinstance(node.body, cst.IndentedBlock):
            for statement in node.body.body:
                if not isinstance(statement, cst.SimpleStatementLine):
                    continue
                for small in statement.body:
                    if isinstance(small, cst.Assign) and len(small.targets) == 1:
                        target = small.targets[0].target
                        if isinstance(target, cst.Name):
                            attributes[target.value] = small.value
                    elif (
                        isinstance(small, cst.AnnAssign)
                        and small.value is not None
                        and isinstance(small.target, cst.Name)
                    ):
                        attributes[small.target.value] = small.value
        info = ClassInfo(
            name=name,
            qualpath=self._qualpath(name),
            line=line,
            docstring=node.get_docstring(clean=True),
            bases=tuple(arg.value for arg in node.bases if not arg.keyword and not arg.star),
            attributes=attributes,
        )
        if not self.functions:
            self.summary.classes.setdefault(info.qualpath, info)
        if self._module_scope:
            self.summary.bind(name, Binding("class", line))
        context = self._context()
        for decorator in node.decorators:
            self.summary.decorated.append(
                DecoratorSite(decorator.decorator, self._line(decorator), info, context)
            )
        self.classes.append(name)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.classes.pop()

    def visit_Decorator(self, node: cst.Decorator) -> None:
        self.decorators += 1

    def leave_Decorator(self, original_node: cst.Decorator) -> None:
        self.decorators -= 1

    def visit_For(self, node: cst.For) -> None:
        if self._module_scope:
            self._bind_target(node.target, self._line(node))
        self.loops += 1

    def leave_For(self, original_node: cst.For) -> None:
        self.loops -= 1

    def visit_While(self, node: cst.While) -> None:
        self.loops += 1

    def leave_While(self, original_node: cst.While) -> None:
        self.loops -= 1

    # -- module-level bindings ---------------------------------------------------------------

    def visit_Import(self, node: cst.Import) -> None:
        if not self._module_scope:
            return
        line = self._line(node)
        for alias in node.names:
            full = dotted_name(alias.name)
            if full is None:
                continue
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.summary.bind(alias.asname.name.value, Binding("import", line, target=full))
            else:
                head = full.split(".")[0]
                self.summary.bind(head, Binding("import", line, target=head))

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if not self._module_scope:
            return
        line = self._line(node)
        base = _import_target(node, self.summary.source.package)
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
            if base is None:
                self.summary.bind(local, Binding("other", line))
            else:
                target = f"{base}.{imported}" if base else imported
                self.summary.bind(local, Binding("import", line, target=target))

    def visit_Assign(self, node: cst.Assign) -> None:
        if not self._module_scope:
            return
        line = self._line(node)
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                binding = Binding("assign", line, value=node.value)
                self.summary.bind(target.target.value, binding)
            else:
                self._bind_target(target.target, line)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if not self._module_scope or node.value is None:
            return
        if isinstance(node.target, cst.Name):
            line = self._line(node)
            self.summary.bind(node.target.value, Binding("assign", line, value=node.value))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if self._module_scope:
            self._bind_target(node.target, self._line(node))

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if self._module_scope and node.asname is not None:
            self._bind_target(node.asname.name, self._line(node))

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if self._module_scope and node.name is not None:
            self._bind_target(node.name.name, self._line(node))

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        if not self.functions:
            self._bind_target(node.target, self._line(node))

    def visit_Del(self, node: cst.Del) -> None:
        if self._module_scope:
            self._bind_target(node.target, self._line(node))

    def visit_Global(self, node: cst.Global) -> None:
        line = self._line(node)
        for item in node.names:
            self.summary.bind(item.name.value, Binding("other", line))

    # -- calls -------------------------------------------------------------------------------

    def visit_Call(self, node: cst.Call) -> None:
        if self.decorators:
            return
        func = node.func
        if isinstance(func, cst.Call):
            func = func.func
        if not isinstance(func, (cst.Name, cst.Attribute)):
            return
        has_positional = any(not arg.keyword and not arg.star for arg in node.args)
        registers = isinstance(func, cst.Attribute) and func.attr.value == "register_task"
        if has_positional or registers:
            self.summary.calls.append(CallSite(node, self._line(node), self._context()))
