"""Each place that could register a job, judged: a decorated definition, a call-style
registration (``app.task(fn)``, or ``fn = app.task(fn)`` as Celery's docs write it) or a task
class handed to ``register_task``. A place that registers a job the parser cannot follow (inside a
function, a loop, something that is not a function of the module) becomes an :class:`Unsupported`
entry, never a silent gap.

So does a decorator whose name the resolver refuses (bound more than once, imported from a module
the tree should hold but does not) when it may be a job decorator: one of its bindings is one, or
it is spelled like one (:func:`~.matching.spelled_like_a_job`). A refused name spelled like
``login_required`` is left alone: most decorators are not jobs, and reporting every one would
bury the real gaps.

A place whose callee's last part is not a relevant word (:meth:`.prefilter.Words.relevant`)
cannot yield anything, so its name is not resolved at all: ``@allow_writer()`` stacked under a
job, or ``logger.info(...)``, opens no other module. The word is noted in the scan's
:class:`~.deps.Trail`, since an alias defined later under that name would make the place matter.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import libcst as cst

from ..ledger.model import Job, Pattern, Unsupported
from ..project import Config
from . import advice
from .arguments import CallArguments, read
from .binding import (
    held_decorator,
    names_a_def,
    registering_names,
    resolve_in,
    wraps_a_parameter,
)
from .frameworks import FRAMEWORKS
from .matching import Match, match, spelled_like_a_job
from .prefilter import Words
from .records import (
    CallSite,
    Context,
    DecoratorSite,
    FunctionInfo,
    ModuleSummary,
    Reference,
    dotted_name,
    head_name,
)
from .refs import Ref
from .resolve import ProjectIndex
from .rows import RowBuilder, Scope
from .schedules import scheduled
from .values import source_text


@dataclass
class Sites:
    """Turns one module's candidate places into jobs and unsupported entries."""

    index: ProjectIndex
    config: Config
    rows: RowBuilder
    #: Only places whose callee ends in one of these words are judged; ``None`` judges every
    #: place (the reference the pre-filter is tested against).
    words: Words | None = None
    #: The configured decorators some place matched (a configured name nothing matches, and
    #: that no scanned module defines, is worth a warning).
    matched: set[str] = field(default_factory=set)
    #: The names the tree binds to a job decorator (:func:`.prefilter.alias_closure`), known
    #: whether or not places are filtered: a refused alias of one is reported.
    aliases: frozenset[str] = frozenset()

    def match(self, ref: Ref) -> Match | None:
        found = match(ref, self.config)
        if found is not None and found.spec is not None:
            self.matched.add(found.spec.qualname)
        return found

    def _skipped(self, callee: cst.BaseExpression) -> bool:
        """Whether the place cannot yield anything, by its callee's last part (see above)."""
        if self.words is None:
            return False
        dotted = dotted_name(callee)
        if dotted is None:
            return True  # a subscript, a call, a lambda: the resolver resolves none of them
        word = dotted.rsplit(".", 1)[-1]
        if self.words.relevant(word):
            return False
        trail = self.index.loader.trail
        if trail is not None:
            trail.skipped.add(word)
        return True

    def _inside_configured_decorator(self, summary: ModuleSummary, context: Context) -> bool:
        """The body of a configured homegrown decorator is its implementation, not a job."""
        if not context.in_function:
            return False
        return (
            f"{summary.source.module}.{context.in_function[0]}" in self.config.extraction.decorators
        )

    # -- decorator sites ---------------------------------------------------------------------

    def decorator_site(
        self, summary: ModuleSummary, site: DecoratorSite
    ) -> Iterator[Job | Unsupported]:
        node = site.decorator
        callee, args = (node.func, node.args) if isinstance(node, cst.Call) else (node, ())
        if self._skipped(callee):
            return
        ref, local = resolve_in(self.index, summary, callee, site.context)
        if ref is None or local:
            if not site.reads & site.context.params:  # a declared decorator's own use is not
                yield from self._local_name(  # reported; anything else is
                    summary,
                    site.line,
                    site.context,
                    callee,
                    site.target.name,
                    ref=ref,
                    applied=True,
                    declared=True,
                )
            return
        match = self.match(ref)
        if match is None:
            if ref is not None and not self._inside_configured_decorator(summary, site.context):
                yield from self._refused(summary, site.line, callee, ref, site.target.name)
            return
        if self._inside_configured_decorator(summary, site.context):
            if not site.reads & site.context.params:  # registers something it does not wrap
                yield advice.not_the_decorated(
                    summary, site.line, site.context, match, site.target.name
                )
            return
        problem = advice.context_problem(summary, site.line, site.context, match, site.target.name)
        if problem is not None:
            yield problem
            return
        job = self.rows.job(summary, site.target, summary, site.line, match, ref, args)
        yield scheduled(self.index, summary, site, job)

    # -- call sites --------------------------------------------------------------------------

    def call_site(self, summary: ModuleSummary, site: CallSite) -> Iterator[Job | Unsupported]:
        call = site.call
        curried = isinstance(call.func, cst.Call)
        callee = call.func.func if isinstance(call.func, cst.Call) else call.func
        positional = [arg for arg in call.args if not arg.keyword and not arg.star]
        if not curried and not positional and not _names_register_task(callee):
            return  # ``shared_task(queue=q)`` inside a wrapper: read with it (wrapper.py)
        if self._skipped(callee):
            return
        ref, local = resolve_in(self.index, summary, callee, site.context)
        if ref is None or local:
            if curried or positional:
                label = source_text(positional[0].value, 40) if positional else "a function"
                handed = positional[0].value if positional else None
                yield from self._local_name(
                    summary,
                    site.line,
                    site.context,
                    callee,
                    label,
                    ref=ref,
                    applied=curried or names_a_def(summary, site.context, handed),
                    declared=handed is None or not wraps_a_parameter(handed, site.context),
                )
            return
        if not curried and self._is_register_method(ref):
            yield from self._class_registration(summary, site, ref)
            return
        match = self.match(ref)
        if match is None:
            # ``app.task(fn)`` with a refused ``app``: reported when it hands over a function
            # of this module (``send_task("name")`` and the like register nothing)
            handed = positional[0].value if positional else None
            if handed is not None and self._local_function(summary, handed, call) is not None:
                yield from self._refused(summary, site.line, callee, ref, source_text(handed, 40))
            return
        if curried:
            assert isinstance(call.func, cst.Call)
            registration_args: Sequence[cst.Arg] = call.func.args
        elif ref.called or match.rules.fn_first:
            registration_args = [
                arg for arg in call.args if positional and arg is not positional[0]
            ]
        else:
            return
        if not positional:
            return
        target_node = positional[0].value
        label = source_text(target_node, 40)
        if self._inside_configured_decorator(summary, site.context):
            # the declared decorator's implementation registers a parameter (the function it
            # decorates), or an inner def that calls it (``huey.task(...)(inner)``: the call
            # form of a decorated inner def); registering anything else hides a job in its body
            if not wraps_a_parameter(target_node, site.context):
                yield advice.not_the_decorated(summary, site.line, site.context, match, label)
            return
        problem = advice.context_problem(summary, site.line, site.context, match, label)
        if problem is not None:
            yield problem
            return
        target = self._local_function(summary, target_node, call)
        if target is None:
            path = summary.source.rel_path
            yield Unsupported(
                path,
                site.line,
                Pattern.DYNAMIC_REGISTRATION,
                advice.compose(
                    f"{advice.short(match.decorator)}({label}) registers something that is not a "
                    "function defined in this module, so the parser cannot tell which job it is.",
                    advice.fitted(
                        path,
                        Pattern.DYNAMIC_REGISTRATION,
                        "Register the function where it is defined (decorate its def)",
                    ),
                ),
            )
            return
        yield self.rows.job(summary, target, summary, site.line, match, ref, registration_args)

    # -- references ---------------------------------------------------------------------------

    def reference(self, summary: ModuleSummary, site: Reference) -> Iterator[Unsupported]:
        """A job decorator (or a framework's registering method) used as a value: whatever it
        registers cannot be followed, so the place is reported, never left silent."""
        node = site.node
        if site.target is not None and site.context.local(head_name(node) or "") is None:
            held = held_decorator(self.index, summary, node, self.match)
            if held is not None:
                yield advice.held(summary, site, held)
                return
        if self._skipped(node) or self._inside_configured_decorator(summary, site.context):
            return
        ref, local = resolve_in(self.index, summary, node, site.context)
        target = site.target or "a function"
        if local and ref is None:
            return  # a parameter, local or comprehension variable: not the module's name
        if ref is None:
            if site.target is not None:  # in a decorator: the name is a decorator's, not data
                yield from self._local_name(
                    summary, site.line, site.context, node, target, ref=None, applied=False
                )
            return
        if ref.refusal is not None:
            if site.target is not None or any(
                self.match(candidate) is not None
                for candidate in self.index.candidates(ref.refusal)
            ):
                yield from self._refused(summary, site.line, node, ref, target)
            return
        found = self.match(ref)
        if found is None and not self._is_register_method(ref):
            return
        spelled = advice.short(dotted_name(node) or source_text(node, 40))
        what = f"the {found.framework} job decorator" if found else "a task registering method"
        where = f"in the decorator of {advice.short(site.target)}" if site.target else "as a value"
        path = summary.source.rel_path
        yield Unsupported(
            path,
            site.line,
            Pattern.DYNAMIC_REGISTRATION,
            advice.compose(
                f"{spelled} is {what}, used {where} rather than applied to a def, so the parser "
                "cannot tell which job it registers.",
                advice.fitted(
                    path,
                    Pattern.DYNAMIC_REGISTRATION,
                    f"Decorate the job's def with it (@{spelled}(...)) or call it on a "
                    f"module-level function (fn = {spelled}(fn))",
                ),
            ),
        )

    def _local_function(
        self, summary: ModuleSummary, node: cst.BaseExpression, call: cst.Call
    ) -> FunctionInfo | None:
        """The module-level function ``node`` names, when ``call`` registers it: a function
        bound once, or rebound by this very call (``fn = app.task(fn)``)."""
        if not isinstance(node, cst.Name):
            return None
        ref = self.index.resolve_name(summary, node.value)
        if ref is not None and ref.function is not None and ref.module is summary:
            return ref.function
        bindings = summary.bindings.get(node.value, [])
        defs = [b for b in bindings if b.kind == "def"]
        rebinds = [b for b in bindings if b.kind != "def"]
        if (
            len(defs) == 1
            and rebinds
            and all(
                b.kind == "assign" and b.value is call and b.line > defs[0].line for b in rebinds
            )
        ):
            return summary.functions.get(node.value)
        return None

    def refused_job(self, ref: Ref, spelled: str) -> str | None:
        """For a refused name spelled ``spelled``: what it may register (``"a celery job"``,
        when one of its bindings is a Celery decorator; ``"a job"``, when only its spelling says
        so), or ``None`` when nothing suggests it is a job decorator."""
        if ref.refusal is None:
            return None
        for candidate in self.index.candidates(ref.refusal):
            found = self.match(candidate)
            if found is not None:
                return f"a {found.framework} job"
        if spelled_like_a_job(spelled, self.config):
            return "a job"
        if spelled.rsplit(".", 1)[-1] in self.aliases:
            return "a job (it is bound to a job decorator)"
        return None

    def _refused(
        self,
        summary: ModuleSummary,
        line: int,
        callee: cst.BaseExpression,
        ref: Ref,
        target: str,
    ) -> Iterator[Unsupported]:
        """One entry for a place whose decorator the resolver refused, when it may be a job."""
        spelled = dotted_name(callee) or source_text(callee, 40)
        maybe = self.refused_job(ref, spelled)
        if ref.refusal is None or maybe is None:
            return
        path = summary.source.rel_path
        reason = ref.refusal.message
        yield Unsupported(
            path,
            line,
            ref.refusal.pattern,
            advice.compose(
                f"{advice.short(spelled)} may register {advice.short(target)} as {maybe}, but the "
                "parser cannot follow that name, so it is not in the ledger.",
                advice.fitted(
                    path,
                    ref.refusal.pattern,
                    f"{reason[:1].upper()}{reason[1:]}. {_FIXES[ref.refusal.pattern]}",
                ),
            ),
        )

    def _local_name(
        self,
        summary: ModuleSummary,
        line: int,
        context: Context,
        callee: cst.BaseExpression,
        target: str,
        *,
        ref: Ref | None,
        applied: bool,
        declared: bool = False,
    ) -> Iterator[Unsupported]:
        """Inside a function, a registration whose name that function binds (``from .celery
        import app`` in its body), or that is bound nowhere: it runs only when the function does.
        Reported, never dropped, when the binding says it is a job decorator (``ref``, what a
        local import leads to, matches one) or, for a decorator ``applied`` to a def (or a
        curried call), when its last part is exactly a framework's registering name
        (``@app.task`` with ``app`` a parameter). A method that merely ends in ``task``
        (``self.run_task(x)``, ``progress.add_task(...)``) is no evidence.
        Inside a declared decorator it is reported only with ``declared`` (it registers
        something other than the function the decorator wraps)."""
        if not context.in_function:
            return
        if not declared and self._inside_configured_decorator(summary, context):
            return
        spelled = dotted_name(callee)
        if spelled is None:
            return
        last = spelled.rsplit(".", 1)[-1]
        if not spelled_like_a_job(spelled, self.config) and last not in self.aliases:
            return
        if not self._bound_to_a_job(ref, spelled, applied):
            return
        where = advice.short(".".join(context.in_function))
        qualname = f"{summary.source.module}.{context.in_function[0]}"
        path = summary.source.rel_path
        head = spelled.split(".")[0]
        yield Unsupported(
            path,
            line,
            Pattern.FACTORY_REGISTRATION,
            advice.compose(
                f"{advice.short(spelled)} may register {advice.short(target)} inside {where}(), "
                f"where {advice.short(head)} is bound by that function, so the job exists only "
                "when it runs.",
                advice.fitted(
                    path,
                    Pattern.FACTORY_REGISTRATION,
                    "Import the app and register the job at module level; if "
                    f"{qualname} is a decorator that registers the functions it wraps, declare "
                    f'it as [tool.jobledger.decorators."{qualname}"]',
                ),
            ),
        )

    def _bound_to_a_job(self, ref: Ref | None, spelled: str, applied: bool) -> bool:
        """Whether a name bound in a function (or nowhere) is evidence of a registration."""
        if ref is not None:
            if ref.refusal is not None:
                return applied and self.refused_job(ref, spelled) is not None
            return self.match(ref) is not None or self._is_register_method(ref)
        return applied and spelled.rsplit(".", 1)[-1] in registering_names(self.config)

    def is_job_decorator(self, ref: Ref) -> bool:
        """Whether ``ref`` registers what it is applied to (a job decorator of a framework or
        of the configuration, or a registering method), without noting a match."""
        return match(ref, self.config) is not None or self._is_register_method(ref)

    def _is_register_method(self, ref: Ref) -> bool:
        return any(ref.key in fw.register_methods for fw in FRAMEWORKS.values())

    def _class_registration(
        self, summary: ModuleSummary, site: CallSite, ref: Ref
    ) -> Iterator[Job | Unsupported]:
        framework = next(fw for fw in FRAMEWORKS.values() if ref.key in fw.register_methods)
        assert framework.class_rules is not None
        match = Match(framework.name, framework.class_rules, ref.qualname)
        positional = [arg.value for arg in site.call.args if not arg.keyword and not arg.star]
        if not positional:
            return
        node = positional[0]
        label = source_text(node, 40)
        problem = advice.context_problem(summary, site.line, site.context, match, label)
        if problem is not None:
            yield problem
            return
        target_node = node.func if isinstance(node, cst.Call) else node
        target = self.index.resolve_expr(summary, target_node)
        if target is None or target.klass is None or target.module is None:
            path = summary.source.rel_path
            yield Unsupported(
                path,
                site.line,
                Pattern.DYNAMIC_REGISTRATION,
                advice.compose(
                    f"{advice.short(ref.qualname)}({label}) registers a task class the parser "
                    "cannot find in the scanned tree.",
                    advice.fitted(
                        path,
                        Pattern.DYNAMIC_REGISTRATION,
                        "Register a class defined in a scanned module",
                    ),
                ),
            )
            return
        owner = target.module
        arguments = CallArguments()
        for owner_summary, name, value in self.rows.class_attributes(owner, target.klass, 0):
            arguments.add(
                [cst.Arg(value=value, keyword=cst.Name(name))], Scope(self.index, owner_summary)
            )
        yield self.rows.build(
            owner, target.klass, summary, site.line, match, read(match.rules, arguments)
        )


def _names_register_task(callee: cst.BaseExpression) -> bool:
    return isinstance(callee, cst.Attribute) and callee.attr.value == "register_task"


_FIXES = {
    Pattern.AMBIGUOUS_NAME: "Bind the name once at module level",
    Pattern.UNRESOLVED_IMPORT: (
        "Fix the import, or add the module's folder to [tool.jobledger] paths"
    ),
    Pattern.TOO_COMPLEX: "Import the decorator directly from where it is defined",
    Pattern.DYNAMIC_REGISTRATION: (
        "Make the factory return the app on every path, or register the job on an app bound "
        "once at module level"
    ),
}
