"""What a name means, followed through imports across the scanned tree without running anything.

The :class:`ProjectIndex` knows every scanned file by module name and parses a module only when it
is first needed (a registration file, or a module one of them imports from), so the cost stays
proportional to the files that matter. A name resolves to a :class:`Ref`: the dotted path it was
reached by, plus a canonical *key* that framework adapters match on (``celery.Celery().task`` for
the ``task`` method of any Celery app object).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import libcst as cst

from .discovery import SourceFile
from .loading import SourceLoader
from .records import Binding, ClassInfo, FunctionInfo, ModuleSummary
from .values import Outcome, Unknown, evaluate

MAX_DEPTH = 24


@dataclass(frozen=True)
class Preset:
    """Arguments bound before the registration site: ``functools.partial(job, "low")`` or
    ``billing_task = app.task(queue="billing")`` used later as ``@billing_task``."""

    args: tuple[cst.Arg, ...]
    module: ModuleSummary


@dataclass(frozen=True)
class Ref:
    """A resolved name. ``names`` holds every qualified spelling met on the way (for matching
    configured decorators however they are re-exported); ``function``/``klass`` are set when the
    name ends at a definition in the scanned tree."""

    qualname: str
    key: str
    names: frozenset[str] = frozenset()
    is_module: bool = False
    module: ModuleSummary | None = None
    function: FunctionInfo | None = None
    klass: ClassInfo | None = None
    presets: tuple[Preset, ...] = ()
    called: bool = False

    def attribute(self, attr: str) -> Ref:
        qualname = f"{self.qualname}.{attr}"
        return Ref(qualname=qualname, key=f"{self.key}.{attr}", names=frozenset({qualname}))


@dataclass
class ProjectIndex:
    """Every scanned file by module name, parsed on demand by its :class:`SourceLoader`."""

    files: Iterable[SourceFile]
    loader: SourceLoader
    canonical: Mapping[str, str]
    instance_classes: frozenset[str]
    decorator_keys: frozenset[str]
    by_module: dict[str, SourceFile] = field(init=False)

    def __post_init__(self) -> None:
        self.by_module = {}
        for source in self.files:
            self.by_module.setdefault(source.module, source)

    # -- loading -----------------------------------------------------------------------------

    def summary_for_module(self, module: str) -> ModuleSummary | None:
        source = self.by_module.get(module)
        return None if source is None else self.loader.summary(source)

    # -- names -------------------------------------------------------------------------------

    def canonical_key(self, qualname: str) -> str:
        parts = qualname.split(".")
        for cut in range(len(parts), 0, -1):
            prefix = ".".join(parts[:cut])
            if prefix in self.canonical:
                return ".".join([self.canonical[prefix], *parts[cut:]])
        return qualname

    def follow(self, qualname: str, depth: int = 0) -> Ref | None:
        """Resolve an absolute dotted name, looking inside scanned modules where it leads."""
        if depth > MAX_DEPTH:
            return None
        parts = qualname.split(".")
        for cut in range(len(parts), 0, -1):
            module = ".".join(parts[:cut])
            if module not in self.by_module:
                continue
            if cut == len(parts):
                return Ref(
                    qualname=module,
                    key=module,
                    names=frozenset({module}),
                    is_module=True,
                    module=self.summary_for_module(module),
                )
            summary = self.summary_for_module(module)
            if summary is None or parts[cut] not in summary.bindings:
                break
            ref = self.resolve_name(summary, parts[cut], depth + 1)
            if ref is None:
                return None
            for attr in parts[cut + 1 :]:
                ref = self.attribute(ref, attr, depth + 1)
                if ref is None:
                    return None
            return _with_name(ref, qualname)
        return Ref(qualname=qualname, key=self.canonical_key(qualname), names=frozenset({qualname}))

    def attribute(self, ref: Ref, attr: str, depth: int = 0) -> Ref | None:
        if ref.is_module:
            return self.follow(f"{ref.qualname}.{attr}", depth + 1)
        return ref.attribute(attr)

    def resolve_name(self, summary: ModuleSummary, name: str, depth: int = 0) -> Ref | None:
        if depth > MAX_DEPTH:
            return None
        module = summary.source.module
        bindings = summary.bindings.get(name)
        if not bindings:
            for star in reversed(summary.star_imports):
                ref = self.follow(f"{star}.{name}", depth + 1)
                if ref is not None:
                    return ref
            return None
        binding = _single(bindings)
        if binding is None:
            return None
        local = f"{module}.{name}"
        if binding.kind == "import" and binding.target is not None:
            return self.follow(binding.target, depth + 1)
        if binding.kind == "def":
            info = summary.functions.get(name)
            return Ref(local, local, frozenset({local}), module=summary, function=info)
        if binding.kind == "class":
            cls = summary.classes.get(name)
            return Ref(local, local, frozenset({local}), module=summary, klass=cls)
        if binding.kind == "assign" and binding.value is not None:
            return self._resolve_assignment(summary, local, binding.value, depth)
        return None

    def _resolve_assignment(
        self, summary: ModuleSummary, local: str, value: cst.BaseExpression, depth: int
    ) -> Ref | None:
        if isinstance(value, (cst.Name, cst.Attribute)):
            ref = self.resolve_expr(summary, value, depth + 1)
            return _with_name(ref, local) if ref is not None else None
        opaque = Ref(local, local, frozenset({local}), module=summary)
        if not isinstance(value, cst.Call):
            return opaque
        callee = self.resolve_expr(summary, value.func, depth + 1)
        if callee is None:
            return opaque
        instance_of = self.instance_key(callee, depth + 1)
        if instance_of is not None:
            return Ref(local, f"{instance_of}()", frozenset({local}), module=summary)
        if callee.key == "functools.partial" and value.args and not value.args[0].keyword:
            wrapped = self.resolve_expr(summary, value.args[0].value, depth + 1)
            if wrapped is not None and wrapped.key in self.decorator_keys:
                preset = Preset(tuple(value.args[1:]), summary)
                return _with_name(_add_preset(wrapped, preset, called=False), local)
        if callee.key in self.decorator_keys and not _has_positional(value):
            preset = Preset(tuple(value.args), summary)
            return _with_name(_add_preset(callee, preset, called=True), local)
        return opaque

    def instance_key(self, callee: Ref, depth: int = 0) -> str | None:
        """The app class a call creates an instance of: ``Celery`` itself, or a class in the
        scanned tree that derives from it (``class AcmeCelery(Celery)``)."""
        if callee.key in self.instance_classes:
            return callee.key
        if callee.klass is None or callee.module is None or depth > MAX_DEPTH:
            return None
        for base in callee.klass.bases:
            ref = self.resolve_expr(callee.module, base, depth + 1)
            found = self.instance_key(ref, depth + 1) if ref is not None else None
            if found is not None:
                return found
        return None

    def resolve_expr(
        self, summary: ModuleSummary, node: cst.BaseExpression, depth: int = 0
    ) -> Ref | None:
        if isinstance(node, cst.Name):
            return self.resolve_name(summary, node.value, depth + 1)
        if isinstance(node, cst.Attribute):
            base = self.resolve_expr(summary, node.value, depth + 1)
            return None if base is None else self.attribute(base, node.attr.value, depth + 1)
        return None

    # -- values ------------------------------------------------------------------------------

    def value(self, summary: ModuleSummary, node: cst.BaseExpression, depth: int = 0) -> Outcome:
        """Evaluate ``node`` as written in ``summary``'s module, following names to literals."""
        return evaluate(node, lambda name: self.lookup_value(summary, name, depth + 1))

    def lookup_value(self, summary: ModuleSummary, name: str, depth: int = 0) -> Outcome:
        module = summary.source.module
        if depth > MAX_DEPTH:
            return Unknown(f"{name} is defined through too many indirections")
        head, _, rest = name.partition(".")
        bindings = summary.bindings.get(head)
        if not bindings:
            return Unknown(f"{head} is not defined at module level in {module}")
        binding = _single(bindings)
        if binding is None:
            lines = ", ".join(str(b.line) for b in bindings)
            return Unknown(f"{head} is bound more than once in {module} (lines {lines})")
        if binding.kind == "import" and binding.target is not None:
            return self._imported_value(
                f"{binding.target}.{rest}" if rest else binding.target, depth
            )
        if rest:
            return Unknown(f"{name} is not a literal")
        if binding.kind == "assign" and binding.value is not None:
            return self.value(summary, binding.value, depth + 1)
        if binding.kind in ("def", "class"):
            return Unknown(f"{name} is a {'function' if binding.kind == 'def' else 'class'}")
        return Unknown(f"{name} is rebound in {module} (line {binding.line})")

    def _imported_value(self, qualname: str, depth: int) -> Outcome:
        parts = qualname.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = ".".join(parts[:cut])
            if module in self.by_module:
                summary = self.summary_for_module(module)
                if summary is None:
                    return Unknown(f"{qualname} is in {module}, which could not be parsed")
                return self.lookup_value(summary, ".".join(parts[cut:]), depth + 1)
        owner = ".".join(parts[:-1]) or qualname
        return Unknown(f"{parts[-1]} is imported from {owner}, which is not in the scanned tree")


def _single(bindings: list[Binding]) -> Binding | None:
    """The one binding of a name, or ``None`` when it is bound in more than one way."""
    first = bindings[0]
    if len(bindings) == 1:
        return first
    if all(b.kind == "import" and b.target == first.target for b in bindings):
        return first
    return None


def _with_name(ref: Ref, qualname: str) -> Ref:
    return Ref(
        qualname=ref.qualname,
        key=ref.key,
        names=ref.names | {qualname},
        is_module=ref.is_module,
        module=ref.module,
        function=ref.function,
        klass=ref.klass,
        presets=ref.presets,
        called=ref.called,
    )


def _add_preset(ref: Ref, preset: Preset, *, called: bool) -> Ref:
    return Ref(
        qualname=ref.qualname,
        key=ref.key,
        names=ref.names,
        module=ref.module,
        function=ref.function,
        presets=(*ref.presets, preset),
        called=called or ref.called,
    )


def _has_positional(call: cst.Call) -> bool:
    return any(not arg.keyword and not arg.star for arg in call.args)
