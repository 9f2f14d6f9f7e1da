"""What a resolved name is (:mod:`.resolve` follows names to these): a :class:`Ref` with the
canonical key framework tables match on, the arguments bound before the registration
(:class:`Preset`), or the :class:`Refusal` that says why a name cannot be followed."""

from __future__ import annotations

from dataclasses import dataclass, replace

import libcst as cst

from ..ledger.model import Pattern
from .records import ClassInfo, FunctionInfo, ModuleSummary

MAX_DEPTH = 24

#: The key of a refused name: no framework's key starts with it, so it never matches one.
REFUSED_KEY = "?"


@dataclass(frozen=True)
class Refusal:
    """Why a name cannot be followed, in words for a message. For a name bound more than once,
    ``summary`` and ``name`` say where, so :meth:`ProjectIndex.candidates` can tell what each
    binding would mean; ``rest`` is the attribute chain used after it (``task`` of ``app.task``).
    """

    pattern: Pattern
    reason: str
    summary: ModuleSummary | None = None
    name: str | None = None
    rest: tuple[str, ...] = ()
    #: ``path:line`` of the import that led to the name, from the module that uses it.
    imported_at: str | None = None

    @property
    def message(self) -> str:
        return self.reason + (f" (imported at {self.imported_at})" if self.imported_at else "")


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
    refusal: Refusal | None = None

    def attribute(self, attr: str) -> Ref:
        qualname = f"{self.qualname}.{attr}"
        refusal = self.refusal
        if refusal is not None:
            refusal = replace(refusal, rest=(*refusal.rest, attr))
        return Ref(
            qualname=qualname,
            key=f"{self.key}.{attr}",
            names=frozenset({qualname}),
            refusal=refusal,
        )


def refused(qualname: str, refusal: Refusal) -> Ref:
    """A name that cannot be followed, known by the spelling it was reached by."""
    return Ref(qualname=qualname, key=REFUSED_KEY, names=frozenset({qualname}), refusal=refusal)


def with_name(ref: Ref, qualname: str) -> Ref:
    return replace(ref, names=ref.names | {qualname})


def add_preset(ref: Ref, preset: Preset, *, called: bool) -> Ref:
    return replace(
        ref,
        is_module=False,
        klass=None,
        presets=(*ref.presets, preset),
        called=called or ref.called,
    )


def too_deep(qualname: str) -> Ref:
    reason = f"{qualname} is defined through more than {MAX_DEPTH} names or imports (or a cycle)"
    return refused(qualname, Refusal(Pattern.TOO_COMPLEX, reason))
