"""What a name means, followed through imports across the scanned tree without running anything.

The :class:`ProjectIndex` knows every scanned file by module name and parses a module only when it
is first needed (a registration file, or a module one of them imports from), so the cost stays
proportional to the files that matter. A name resolves to a :class:`Ref`: the dotted path it was
reached by, plus a canonical *key* that framework adapters match on (``celery.Celery().task`` for
the ``task`` method of any Celery app object).

A name the resolver refuses to follow (bound more than once, imported from a module the tree
should hold but does not, or defined through too many names) still resolves, to a ``Ref`` whose
:class:`Refusal` says why and whose key matches no framework: the places that use it can then be
reported instead of vanishing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

import libcst as cst

from ..core.text import did_you_mean
from ..ledger.model import Pattern
from .discovery import SourceFile
from .frameworks import FACTORY_APPS
from .loading import SourceLoader
from .records import Binding, ModuleSummary, dotted_name
from .refs import (
    MAX_DEPTH,
    Preset,
    Ref,
    Refusal,
    add_preset,
    refused,
    too_deep,
    with_name,
)
from .values import Outcome, Unknown, evaluate


@dataclass
class ProjectIndex:
    """Every scanned file by module name, parsed on demand by its :class:`SourceLoader`."""

    files: Iterable[SourceFile]
    loader: SourceLoader
    canonical: Mapping[str, str]
    instance_classes: frozenset[str]
    decorator_keys: frozenset[str]
    #: Decorators whose positional arguments are settings, not the function (RQ's queue, Huey's
    #: schedule or context): ``low = job("low")`` is a preset, not a registration.
    positional_settings: frozenset[str] = frozenset()
    #: Methods that return the app object they are called on (:attr:`.Framework.returns_self`).
    returns_self: frozenset[str] = frozenset()
    by_module: dict[str, SourceFile] = field(init=False)

    def __post_init__(self) -> None:
        self.by_module = {}
        for source in self.files:
            self.by_module.setdefault(source.module, source)

    # -- loading -----------------------------------------------------------------------------

    def source(self, module: str) -> SourceFile | None:
        """The scanned file that is ``module``, if any (every question is noted: the answer
        is an input of the rows being built, :mod:`.deps`)."""
        found = self.by_module.get(module)
        self.loader.note_module(module, found)
        return found

    def summary_for_module(self, module: str) -> ModuleSummary | None:
        source = self.source(module)
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
            return too_deep(qualname)
        parts = qualname.split(".")
        for cut in range(len(parts), 0, -1):
            module = ".".join(parts[:cut])
            source = self.source(module)
            if source is None:
                continue
            if cut == len(parts):
                rebound = self._package_attribute(parts, depth)
                if rebound is not None:
                    return with_name(rebound, qualname)
                return Ref(
                    qualname=module,
                    key=module,
                    names=frozenset({module}),
                    is_module=True,
                    module=self.loader.summary(source),
                )
            summary = self.loader.summary(source)
            if summary is None:
                path = source.rel_path
                reason = f"{module} ({path}) could not be parsed (see its own entry)"
                return refused(qualname, Refusal(Pattern.UNRESOLVED_IMPORT, reason))
            ref = self.resolve_name(summary, parts[cut], depth + 1)
            if ref is None:
                return refused(qualname, self._missing(summary, qualname, parts[cut]))
            for attr in parts[cut + 1 :]:
                ref = self.attribute(ref, attr, depth + 1)
                if ref is None:
                    return None
            return with_name(ref, qualname)
        return Ref(qualname=qualname, key=self.canonical_key(qualname), names=frozenset({qualname}))

    def _package_attribute(self, parts: list[str], depth: int) -> Ref | None:
        """``pkg.sub.name`` is a module, but Python reads it as the package's attribute: when
        ``pkg/sub/__init__.py`` binds ``name`` (``from .name import name`` rebinds the submodule's
        name to the object), that binding is what ``from pkg.sub import name`` gets."""
        if len(parts) < 2:
            return None
        package = self.source(".".join(parts[:-1]))
        if package is None or not package.is_package:
            return None
        summary = self.loader.summary(package)
        bindings = summary.bindings.get(parts[-1]) if summary is not None else None
        if summary is None or not bindings:
            return None
        itself = ".".join(parts)
        if all(b.kind == "import" and b.target == itself for b in bindings):
            return None  # ``from . import name``: the submodule itself
        return self.resolve_name(summary, parts[-1], depth + 1)

    def _missing(self, summary: ModuleSummary, qualname: str, name: str) -> Refusal:
        """``qualname`` leads into the scanned module of ``summary``, which has no ``name``."""
        module, path = summary.source.module, summary.source.rel_path
        reason = f"{qualname} is not in the scanned tree: {path} defines no {name}"
        if summary.star_imports:
            reason += " (nor do its star imports)"
        if summary.source.is_package:
            reason += f", and no module {module}.{name} is under the configured paths"
        return Refusal(Pattern.UNRESOLVED_IMPORT, reason)

    def attribute(self, ref: Ref, attr: str, depth: int = 0) -> Ref | None:
        if ref.is_module:
            return self.follow(f"{ref.qualname}.{attr}", depth + 1)
        return ref.attribute(attr)

    # -- configuration -----------------------------------------------------------------------

    def defines(self, qualname: str) -> bool:
        """Whether a scanned module binds ``qualname`` (``acme.jobs.job``: acme/jobs.py binds
        ``job``), or ``qualname`` is itself a scanned module."""
        module, _, name = qualname.rpartition(".")
        if self.source(qualname) is not None:
            return True
        summary = self.summary_for_module(module)
        return summary is not None and (name in summary.bindings or bool(summary.star_imports))

    def near(self, qualname: str) -> str | None:
        """A scanned name close to ``qualname`` (a likely typo of it), or ``None``."""
        module, _, name = qualname.rpartition(".")
        summary = self.summary_for_module(module)
        if summary is not None:
            close = did_you_mean(name, summary.bindings)
            return f"{module}.{close}" if close else None
        close = did_you_mean(module, self.by_module)
        return f"{close}.{name}" if close else None

    def resolve_name(self, summary: ModuleSummary, name: str, depth: int = 0) -> Ref | None:
        """What ``name`` means at module level in ``summary``'s module: ``None`` when it is not
        bound there (a builtin, or a name only a function defines)."""
        module = summary.source.module
        if depth > MAX_DEPTH:
            return too_deep(f"{module}.{name}")
        # ``b = a`` in the same module is followed in a loop, not by recursion: a chain of such
        # aliases costs time linear in its length and never reaches the depth limit; a cycle of
        # them is refused as too complex.
        passed: list[str] = []
        while True:
            local = f"{module}.{name}"
            bindings = summary.bindings.get(name)
            if not bindings:
                ref = self._star_imported(summary, name, depth)
                break
            binding = _single(bindings)
            if binding is None:
                lines = ", ".join(str(b.line) for b in bindings)
                reason = (
                    f"{name} is bound more than once in {summary.source.rel_path} (lines "
                    f"{lines}) and the parser cannot tell which binding is in force"
                )
                return refused(local, Refusal(Pattern.AMBIGUOUS_NAME, reason, summary, name))
            value = binding.value
            if binding.kind == "assign" and isinstance(value, cst.Name):
                if local in passed:
                    return too_deep(passed[0])
                passed.append(local)
                name = value.value
                continue
            ref = self._binding(summary, name, binding, depth)
            break
        if ref is None or ref.refusal is not None or not passed:
            return ref
        return replace(ref, names=ref.names | frozenset(passed))

    def _star_imported(self, summary: ModuleSummary, name: str, depth: int) -> Ref | None:
        for star in reversed(summary.star_imports):
            ref = self.follow(f"{star}.{name}", depth + 1)
            if ref is not None and ref.refusal is None:
                return ref
        return None

    def candidates(self, refusal: Refusal) -> tuple[Ref, ...]:
        """For a name bound more than once: what each binding would make of it (with the
        attributes used after it), for the bindings that can be followed."""
        if refusal.summary is None or refusal.name is None:
            return ()
        found: list[Ref] = []
        for binding in refusal.summary.bindings.get(refusal.name, []):
            ref = self._binding(refusal.summary, refusal.name, binding, 1)
            for attr in refusal.rest:
                ref = None if ref is None else self.attribute(ref, attr, 1)
            if ref is not None and ref.refusal is None:
                found.append(ref)
        return tuple(found)

    def _binding(
        self, summary: ModuleSummary, name: str, binding: Binding, depth: int
    ) -> Ref | None:
        module = summary.source.module
        local = f"{module}.{name}"
        if binding.kind == "import" and binding.target is None:
            reason = (
                f"{name} is imported at {summary.source.rel_path}:{binding.line} by a relative "
                "import that climbs above the top-level package"
            )
            return refused(local, Refusal(Pattern.UNRESOLVED_IMPORT, reason))
        if binding.kind == "import" and binding.target is not None:
            ref = self.follow(binding.target, depth + 1)
            if ref is not None and ref.refusal is not None:
                where = f"{summary.source.rel_path}:{binding.line}"
                ref = replace(ref, refusal=replace(ref.refusal, imported_at=where))
            return ref
        if binding.kind == "def":
            info = summary.functions.get(name)
            return Ref(local, local, frozenset({local}), module=summary, function=info)
        if binding.kind == "class":
            cls = summary.classes.get(name)
            ref = Ref(local, local, frozenset({local}), module=summary, klass=cls)
            inherited = self._decorator_base(ref, depth + 1)
            if isinstance(inherited, Refusal):
                return refused(local, inherited)
            return ref if inherited is None else replace(ref, key=inherited)
        if binding.kind == "assign" and binding.value is not None:
            return self._resolve_assignment(summary, local, binding.value, depth)
        return None

    def _resolve_assignment(
        self, summary: ModuleSummary, local: str, value: cst.BaseExpression, depth: int
    ) -> Ref | None:
        if isinstance(value, (cst.Name, cst.Attribute)):
            ref = self.resolve_expr(summary, value, depth + 1)
            if ref is not None and ref.refusal is not None:
                return ref
            return with_name(ref, local) if ref is not None else None
        opaque = Ref(local, local, frozenset({local}), module=summary)
        if not isinstance(value, cst.Call):
            return opaque
        value = self.unchained(value)
        callee = self.resolve_expr(summary, value.func, depth + 1)
        if callee is None:
            return opaque
        if callee.refusal is not None:  # ``alias = app.task(...)`` with ``app`` refused
            return refused(local, callee.refusal)
        instance_of = self.instance_key(callee, depth + 1)
        if instance_of is None:
            made = self.made_by(callee, depth + 1)
            if isinstance(made, Refusal):
                return refused(local, made)
            instance_of = made
        if instance_of is not None:
            return Ref(local, f"{instance_of}()", frozenset({local}), module=summary)
        if callee.key == "functools.partial" and value.args and not value.args[0].keyword:
            wrapped = self.resolve_expr(summary, value.args[0].value, depth + 1)
            if wrapped is not None and wrapped.refusal is not None:
                return refused(local, wrapped.refusal)
            if wrapped is not None and wrapped.key in self.decorator_keys:
                preset = Preset(tuple(value.args[1:]), summary)
                return with_name(add_preset(wrapped, preset, called=False), local)
        if callee.key in self.decorator_keys and (
            not _has_positional(value) or callee.key in self.positional_settings
        ):
            preset = Preset(tuple(value.args), summary)
            return with_name(add_preset(callee, preset, called=True), local)
        return opaque

    def unchained(self, call: cst.Call) -> cst.Call:
        """``Broker(url).with_result_backend(b)`` is the ``Broker(url)`` it is called on, when
        the method is one a framework documents as returning the app object itself."""
        while (
            isinstance(call.func, cst.Attribute)
            and call.func.attr.value in self.returns_self
            and isinstance(call.func.value, cst.Call)
        ):
            call = call.func.value
        return call

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

    def made_by(self, callee: Ref, depth: int = 0) -> str | Refusal | None:
        """The app class a factory of the scanned tree returns an instance of (``def
        create_app(): app = Celery(...); ...; return app``), when every value it returns is one
        of the same class; a refusal when only some are (the app exists on some paths only, so a
        registration on it cannot be proved either way); else ``None``."""
        function, module = callee.function, callee.module
        if function is None or module is None or depth > MAX_DEPTH:
            return None
        returns = module.returns.get(function.qualpath)
        if not returns:
            return None
        found: set[str | None] = set()
        for value in returns:
            if value is None:
                found.add(None)
            elif isinstance(value, cst.Call):
                made = self.resolve_expr(module, self.unchained(value).func, depth + 1)
                key = self.instance_key(made, depth + 1) if made is not None else None
                found.add(key if key in FACTORY_APPS else None)
            else:
                ref = self.resolve_expr(module, value, depth + 1)
                proved = ref is not None and ref.refusal is None and ref.key.endswith("()")
                key = ref.key[:-2] if ref is not None and proved else None
                found.add(key if key in FACTORY_APPS else None)
        apps = sorted(key for key in found if key is not None)
        if len(found) == 1 and apps:
            return apps[0]
        if apps:
            return Refusal(
                Pattern.DYNAMIC_REGISTRATION,
                f"the factory {callee.qualname}() returns a {' or '.join(apps)} app on some paths "
                "only",
            )
        return None

    def _decorator_base(self, ref: Ref, depth: int) -> str | Refusal | None:
        """The framework decorator a class of the scanned tree derives from (``class
        MyJob(rq.decorators.job)``): a subclass of a framework's decorator class is that
        framework's decorator, used directly or through ``functools.partial``. A hierarchy
        too deep to follow is a refusal (reported where it is used), never a plain class."""
        if ref.klass is None or ref.module is None:
            return None
        for base in ref.klass.bases:
            found = self.resolve_expr(ref.module, base, depth + 1)
            if found is None:
                continue
            if found.refusal is not None and found.refusal.pattern is Pattern.TOO_COMPLEX:
                return found.refusal
            if found.refusal is None and found.key in self.decorator_keys:
                return found.key
        return None

    def resolve_expr(
        self, summary: ModuleSummary, node: cst.BaseExpression, depth: int = 0
    ) -> Ref | None:
        if depth > MAX_DEPTH:
            return too_deep(f"{summary.source.module}.{source_name(node)}")
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
        if binding.kind == "import" and binding.target is None:
            return Unknown(f"{head} is imported by a relative import above the top-level package")
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
            source = self.source(module)
            if source is not None:
                summary = self.loader.summary(source)
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


def source_name(node: cst.BaseExpression) -> str:
    """``a.b.c`` for a chain of names, else ``…`` (for messages only)."""
    return dotted_name(node) or "…"


def _has_positional(call: cst.Call) -> bool:
    return any(not arg.keyword and not arg.star for arg in call.args)
