"""Which framework a resolved decorator belongs to: a configured homegrown decorator first, then
the rules each framework declares for its canonical keys."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..ledger.model import RESOLVED_FIELDS
from ..project import Config, DecoratorSpec
from .frameworks import CUSTOM, FRAMEWORKS, Rules
from .prefilter import JOB_NAMES, JOB_SUFFIX
from .refs import Ref


@dataclass(frozen=True)
class Match:
    framework: str
    rules: Rules
    decorator: str
    spec: DecoratorSpec | None = None


def spelled_like_a_job(dotted: str, config: Config) -> bool:
    """Whether a decorator spelled ``dotted`` could be a job decorator by its name alone: its last
    part is spelled the way every framework's job decorators are (``*task``: Celery, Huey;
    ``actor``: Dramatiq; ``job``: RQ) or a configured decorator's is. The pre-filter
    (:class:`.prefilter.Words`) looks for the same words."""
    last = dotted.rsplit(".", 1)[-1]
    if last.endswith(JOB_SUFFIX) or last in JOB_NAMES:
        return True
    return any(name.rsplit(".", 1)[-1] == last for name in config.extraction.decorators)


def match(ref: Ref, config: Config) -> Match | None:
    """The framework and rules of the decorator ``ref`` names, or ``None`` if it is not one."""
    for name in sorted(ref.names | {ref.qualname}):
        spec = config.extraction.decorators.get(name)
        if spec is not None:
            if spec.framework is None:
                unmapped = {
                    field: f"no argument of {spec.qualname} is mapped to {field} in "
                    "[tool.jobledger.decorators]"
                    for field in RESOLVED_FIELDS
                    if field not in spec.fields
                }
                rules = replace(
                    CUSTOM.with_overrides(spec.fields, spec.time_unit), not_applicable=unmapped
                )
                return Match("custom", rules, spec.qualname, spec)
            framework = FRAMEWORKS[spec.framework]
            # arq and SAQ have no decorator: their settings' rules read the arguments
            framework_rules = next(iter(framework.decorators.values()), framework.class_rules)
            assert framework_rules is not None
            rules = framework_rules.with_overrides(spec.fields, spec.time_unit)
            return Match(spec.framework, rules, spec.qualname, spec)
    for framework in FRAMEWORKS.values():
        found = framework.decorators.get(ref.key)
        if found is not None:
            shown = ref.qualname if "()" in ref.key else ref.key
            return Match(framework.name, found, shown)
    return None
