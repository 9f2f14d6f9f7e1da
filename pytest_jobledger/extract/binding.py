"""Evidence by binding, never by spelling: what a name at a place is bound to where the place
uses it (Python's scoping, :mod:`.scopes`), the job decorator a module-level container holds, and
whether a declared wrapper's registration hands on the function it wraps.

A located problem needs a name whose binding leads to a job decorator, a framework's registering
method or a declared decorator, or a decorator whose attribute is exactly a framework's
registering name (``@x.task`` on a def inside a function, ``x`` unknown). A method that only
ends in ``task`` (``self.run_task(x)``, ``progress.add_task(...)``) and a parameter, local or
comprehension variable named like the decorator are no evidence.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import libcst as cst

from ..project import Config
from .frameworks import FRAMEWORKS
from .matching import Match
from .records import Context, ModuleSummary, dotted_name, head_name
from .refs import Ref
from .resolve import ProjectIndex
from .scopes import names_read


def resolve_in(
    index: ProjectIndex, summary: ModuleSummary, node: cst.BaseExpression, context: Context
) -> tuple[Ref | None, bool]:
    """What ``node`` names where it is used, and whether its first name is bound there
    rather than at module level (a parameter, local, comprehension variable or class
    attribute shadows the module's name; a local import is followed)."""
    head = head_name(node)
    bindings = context.local(head) if head is not None else None
    if bindings is None:
        return index.resolve_expr(summary, node), False
    targets = {binding.target for binding in bindings}
    imported = all(binding.kind == "import" for binding in bindings)
    if not imported or len(targets) != 1 or None in targets:
        return None, True
    ref = index.follow(next(iter(t for t in targets if t is not None)))
    spelled = dotted_name(node) or ""
    for attr in spelled.split(".")[1:]:
        ref = None if ref is None else index.attribute(ref, attr)
    return ref, True


def held_decorator(
    index: ProjectIndex,
    summary: ModuleSummary,
    node: cst.BaseExpression,
    match: Callable[[Ref], Match | None],
) -> tuple[Match, cst.BaseExpression] | None:
    """For a name in a decorator bound once in this module to a literal container (``DECOS =
    {"t": app.task}``): the job decorator it holds, which ``@DECOS["t"]`` applies."""
    if not isinstance(node, cst.Name):
        return None
    bindings = summary.bindings.get(node.value)
    if not bindings or len(bindings) != 1 or bindings[0].kind != "assign":
        return None
    value = bindings[0].value
    if isinstance(value, cst.Dict):
        held = [e.value for e in value.elements if isinstance(e, cst.DictElement)]
    elif isinstance(value, (cst.List, cst.Tuple, cst.Set)):
        held = [element.value for element in value.elements]
    else:
        return None
    for element in held:
        element = element.func if isinstance(element, cst.Call) else element
        if not isinstance(element, (cst.Name, cst.Attribute)):
            continue
        ref = index.resolve_expr(summary, element)
        found = match(ref) if ref is not None and ref.refusal is None else None
        if found is not None:
            return found, element
    return None


def registering_names(config: Config) -> frozenset[str]:
    """The last parts of every framework's decorators and of the configured ones: the names
    a decorator of an unknown object (``@app.task``, ``app`` a parameter) registers by."""
    return _framework_names() | {name.rsplit(".", 1)[-1] for name in config.extraction.decorators}


@lru_cache(maxsize=1)
def _framework_names() -> frozenset[str]:
    return frozenset(key.rsplit(".", 1)[-1] for fw in FRAMEWORKS.values() for key in fw.decorators)


def wraps_a_parameter(node: cst.BaseExpression, context: Context) -> bool:
    """Whether a registration inside a function hands on the function that function wraps:
    one of its parameters, or a def nested in it whose body reads one (``inner`` calling
    ``fn``: Huey's retry recipe, a drop-in ``django_rq.job`` that adds context)."""
    if not isinstance(node, cst.Name):
        return False
    if node.value in context.params:
        bindings = context.local(node.value)
        return bindings is None or any(binding.kind == "param" for binding in bindings)
    for binding in context.local(node.value) or ():
        if binding.node is not None and names_read(binding.node) & context.params:
            return True
    return False


def names_a_def(summary: ModuleSummary, context: Context, node: cst.BaseExpression | None) -> bool:
    """Whether ``node`` names a function defined in the code (in the enclosing function, or at
    module level): ``app.task(fun)`` with ``fun`` a def is the call form of ``@app.task``, so it
    is judged like a decorator; ``self.task(g.tasks)`` or ``x.task(Mock())`` is not."""
    if not isinstance(node, cst.Name):
        return False
    local = context.local(node.value)
    if local is not None:
        return any(binding.kind == "def" for binding in local)
    bindings = summary.bindings.get(node.value, [])
    return bool(bindings) and all(binding.kind == "def" for binding in bindings)
