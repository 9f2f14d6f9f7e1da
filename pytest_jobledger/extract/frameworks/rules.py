"""How a framework's registration arguments map to ledger fields: data, not code paths.

Each framework module declares :class:`Rules` for its decorators; ``arguments.py`` reads any call
with any rules. A homegrown decorator configured with ``framework = "celery"`` simply reuses the
Celery rules with its own keyword names laid over them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # the tables are read without libcst: a warm run never imports it
    import libcst as cst

    from ..values import Outcome

#: How each ledger field's value is checked and converted.
FIELD_KINDS: Mapping[str, str] = {
    "name": "text",
    "queue": "text",
    "max_retries": "count",
    "retry_delay_s": "seconds",
    "soft_time_limit_s": "seconds",
    "time_limit_s": "seconds",
}


#: Delivery options read as typed values (:attr:`Job.delivery <..ledger.model.Job.delivery>`),
#: by kind: ``flag`` (true/false), ``names`` (exception classes, as written), ``text``,
#: ``seconds`` (in the framework's unit, written in seconds), ``flag_or_seconds``.
DELIVERY_KINDS: Mapping[str, str] = {
    "acks_late": "flag",
    "reject_on_worker_lost": "flag",
    "autoretry_for": "names",
    "retry_backoff": "flag_or_seconds",
    "retry_jitter": "flag",
    "rate_limit": "text",
    "expires_s": "seconds",
    "result_ttl_s": "seconds",
}


class Evaluation(Protocol):
    """What a hook may ask about an argument: its literal value, or what a callee resolves to."""

    def value(self, node: cst.BaseExpression) -> Outcome: ...

    def key_of(self, node: cst.BaseExpression) -> str | None: ...


#: A hook reads one keyword that carries several fields (``retry=Retry(max=3)``).
Hook = Callable[["cst.BaseExpression", "Evaluation"], Mapping[str, "Outcome"]]


@dataclass(frozen=True)
class FieldRule:
    field: str
    keywords: tuple[str, ...] = ()
    position: int | None = None


@dataclass(frozen=True)
class Rules:
    framework: str
    fields: tuple[FieldRule, ...]
    time_unit: str = "s"
    #: True when ``decorator(fn, ...)`` registers ``fn`` (Celery, Dramatiq); RQ's first
    #: positional is the queue, so only the curried ``job("q")(fn)`` form registers there.
    fn_first: bool = False
    positional_names: tuple[str, ...] = ()
    #: Duration strings such as ``"10m"`` are accepted for seconds fields (RQ).
    durations: bool = False
    hooks: Mapping[str, Hook] = field(default_factory=dict)
    #: Why a field this framework does not have is null (instead of "not set at registration").
    not_applicable: Mapping[str, str] = field(default_factory=dict)
    #: Keywords that are delivery options, to the :data:`DELIVERY_KINDS` key each one sets (the
    #: keyword stays under ``options`` too).
    delivery: Mapping[str, str] = field(default_factory=dict)

    def with_overrides(self, fields: Mapping[str, str | int], time_unit: str | None) -> Rules:
        """These rules with a homegrown decorator's own argument names laid over them."""
        rules = {rule.field: rule for rule in self.fields}
        for name, where in fields.items():
            if isinstance(where, int):
                rules[name] = FieldRule(name, position=where)
            else:
                rules[name] = FieldRule(name, keywords=(where,))
        not_applicable = {k: v for k, v in self.not_applicable.items() if k not in fields}
        return replace(
            self,
            fields=tuple(rules.values()),
            time_unit=time_unit or self.time_unit,
            not_applicable=not_applicable,
        )


@dataclass(frozen=True)
class Framework:
    """One framework's vocabulary: the decorators (by canonical key) and how to read them."""

    name: str
    decorators: Mapping[str, Rules]
    #: External spellings folded to one key (``celery.app.shared_task`` -> ``celery.shared_task``).
    canonical: Mapping[str, str] = field(default_factory=dict)
    #: Calls that create an app object whose methods register jobs (``Celery(...)``).
    instance_classes: frozenset[str] = frozenset()
    #: Class-based jobs: methods that register one.
    register_methods: frozenset[str] = frozenset()
    class_rules: Rules | None = None
    #: Methods of an app object that return the object itself (taskiq's
    #: ``broker.with_result_backend(...)``): ``Broker(...).with_x(...)`` is still a broker.
    returns_self: frozenset[str] = frozenset()
    #: Decorators stacked on a job's own that schedule it (procrastinate's ``@app.periodic``):
    #: canonical key -> the option their keyword arguments are recorded under.
    schedules: Mapping[str, str] = field(default_factory=dict)
