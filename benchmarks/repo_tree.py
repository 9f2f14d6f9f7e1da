"""A synthetic source tree shaped like a real application's, for ``extract_bench.py``.

    python benchmarks/repo_tree.py DIR [--modules 10000] [--seed 8] [--shape SHAPE]

The shape follows what was measured on real Celery, Dramatiq, RQ and Huey applications:

- one module holds the Celery app (``shop/worker.py``), one the Huey instance, one a Dramatiq
  broker; a module of decorator aliases (``billing_task = app.task(queue="billing")``) and a
  homegrown job decorator that wraps ``shared_task`` (configured in ``pyproject.toml``);
- about 3 % of modules register jobs, across every framework, with decorators imported across
  modules, and ordinary decorators from other packages (``@allow_writer()``, ``@log_calls``)
  stacked under the job decorators;
- about 6 % mention tasks, jobs or actors without registering anything: they import task
  functions, call ``.delay()``, keep ``task_id`` variables, enqueue with ``job = queue.enqueue``;
- the rest is ordinary code (helpers, classes, decorators, imports of each other) of varied size.

``--shape real`` writes a tree shaped like measured real codebases instead
(:func:`write_real_tree`): most modules use jobs without registering any (they import task
functions, call ``.delay()``, ``.send()`` and ``.apply_async()``, keep ``task_id`` variables and
Celery settings; a few call ``app.send_task`` or a task function directly, so the text scan must
parse them), about one file in twenty registers jobs (Celery and Dramatiq shapes), and about one
in a hundred is a very large module (migrations, generated code) that registers none.
``--shape lookalike`` (:mod:`lookalike_tree`): most modules spell ``task``, ``job`` or ``actor``
and register nothing (service classes, progress bars, asyncio, a homegrown scheduler, models,
tests), a few are 5,000 lines long.

Everything is derived from ``--seed``, so two runs write the same bytes. The tree is a
``src/``-layout project with ``[tool.jobledger]`` and an overlay that signs every job's cells
(``overlays/job_policy.yaml``), so ``pytest --jobledger`` on it has one passing item per cell.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

AREA_SIZE = 40

PYPROJECT = """[project]
name = "shop"
version = "1.0.0"

[tool.jobledger]
paths = ["src"]

[tool.jobledger.decorators."shop.platform.jobs.background"]
framework = "celery"
queue = "queue"
"""

WORKER = '''"""The Celery app of the shop: every Celery job runs on it."""

from celery import Celery

app = Celery("shop")
app.config_from_object("shop.settings", namespace="CELERY")
app.autodiscover_tasks()
'''

HUEY = '''"""The Huey instance for the warehouse side."""

from huey import RedisHuey

huey = RedisHuey("shop", immediate=False)
'''

BROKER = '''"""The Dramatiq broker."""

import dramatiq
from dramatiq.brokers.redis import RedisBroker

broker = RedisBroker(url="redis://localhost:6379/1")
dramatiq.set_broker(broker)
'''

SETTINGS = '''"""Settings read by jobs."""

BILLING_QUEUE = "billing"
REPORTS_QUEUE = "reports"
DEFAULT_RETRIES = 5
SOFT_LIMIT = 60 * 5
'''

ALIASES = '''"""Decorator aliases shared by the job modules."""

from shop.settings import BILLING_QUEUE
from shop.worker import app

billing_task = app.task(queue=BILLING_QUEUE, max_retries=5, acks_late=True)
reports_task = app.task(queue="reports", soft_time_limit=600)
'''

HOMEGROWN = '''"""``@background``: the platform team's job decorator, wrapping shared_task."""

import functools

from celery import shared_task


def background(queue="default", **options):
    """Register the decorated function as a Celery job on ``queue``."""

    def register(fn):
        @functools.wraps(fn)
        def run(*args, **kwargs):
            return fn(*args, **kwargs)

        return shared_task(run, queue=queue, **options)

    return register
'''

ROUTING = '''"""Database routing decorators (an ordinary package, no jobs)."""

import functools


def allow_writer(alias="default"):
    """Route the queries of the decorated function to the writer database."""

    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            return fn(*args, **kwargs)

        return inner

    return wrap
'''

LOGGING = '''"""Call logging (an ordinary package, no jobs)."""

import functools
import logging

logger = logging.getLogger("shop")


def log_calls(fn):
    """Log each call of the decorated function."""

    @functools.wraps(fn)
    def inner(*args, **kwargs):
        logger.debug("calling %s", fn.__name__)
        return fn(*args, **kwargs)

    return inner
'''

SHARED = {
    "shop/__init__.py": '"""The shop."""\n',
    "shop/worker.py": WORKER,
    "shop/hueyconf.py": HUEY,
    "shop/broker.py": BROKER,
    "shop/settings.py": SETTINGS,
    "shop/platform/__init__.py": "",
    "shop/platform/aliases.py": ALIASES,
    "shop/platform/jobs.py": HOMEGROWN,
    "shop/db/__init__.py": "",
    "shop/db/routing.py": ROUTING,
    "shop/common/__init__.py": "",
    "shop/common/logging_utils.py": LOGGING,
}

HELPER = '''

def {name}(value, factor={factor}):
    """Scale a value and label it; ordinary code."""
    items = [value * factor for _ in range({count})]
    if value > {factor}:
        return {{"items": items, "label": str(value), "total": sum(items)}}
    return {{"items": [], "label": "", "total": 0}}
'''

CLASS = '''

class {name}:
    """A small service object; ordinary code."""

    def __init__(self, client, retries={factor}):
        self.client = client
        self.retries = retries

    @property
    def label(self):
        return f"{{type(self).__name__}}:{{self.retries}}"

    @functools.lru_cache(maxsize=32)
    def fetch(self, key):
        return self.client.get(key, timeout={factor})

    @allow_writer()
    def store(self, key, value):
        return self.client.set(key, value)
'''

#: One registration per framework pattern; ``{f}`` is the function's name, ``{k}`` a number.
JOBS = (
    '''

@app.task(queue="orders", max_retries={k}, soft_time_limit=60 * {k})
@allow_writer()
def {f}(order_id):
    """Process one order step."""
    return {helper}(order_id)
''',
    '''

@shared_task(bind=True, queue=REPORTS_QUEUE, max_retries=DEFAULT_RETRIES)
@log_calls
def {f}(self, report_id):
    """Build one report."""
    return {helper}(report_id)
''',
    '''

@billing_task
@allow_writer("billing")
def {f}(invoice_id):
    """Capture one invoice."""
    return {helper}(invoice_id)
''',
    '''

@reports_task
def {f}(day):
    """Export one day."""
    return {helper}(day)
''',
    '''

@dramatiq.actor(queue_name="ingest", max_retries={k}, time_limit={k}000)
def {f}(batch_id):
    """Ingest one batch."""
    return {helper}(batch_id)
''',
    '''

@job("low", timeout="{k}m")
def {f}(image_id):
    """Resize one image."""
    return {helper}(image_id)
''',
    '''

@huey.task(retries={k}, retry_delay=30)
@log_calls
def {f}(sku):
    """Recount one SKU."""
    return {helper}(sku)
''',
    '''

@background(queue="platform", max_retries={k})
def {f}(account_id):
    """Sync one account."""
    return {helper}(account_id)
''',
)

JOB_IMPORTS = """import dramatiq
from celery import shared_task
from rq.decorators import job

from shop.common.logging_utils import log_calls
from shop.db.routing import allow_writer
from shop.hueyconf import huey
from shop.platform.aliases import billing_task, reports_task
from shop.platform.jobs import background
from shop.settings import DEFAULT_RETRIES, REPORTS_QUEUE
from shop.worker import app
"""

#: Ways ordinary code mentions jobs without registering one.
MENTIONS = (
    "\n\ndef enqueue_{n}(order_id):\n    result = {task}.delay(order_id)\n"
    "    task_id = result.id\n    return task_id\n",
    "\n\ndef schedule_{n}(queue, order_id):\n    job = queue.enqueue({task}, order_id)\n"
    "    return job.id\n",
    '\n\ndef describe_{n}(actor):\n    """Which actor handled the job."""\n'
    '    return {{"actor": actor, "task_id": None}}\n',
    "\n\ndef retry_{n}(order_id):\n    return {task}.apply_async((order_id,), countdown=30)\n",
)


@dataclass
class Tree:
    """What was written: every module's path, and which modules register which jobs."""

    modules: list[str] = field(default_factory=list)
    job_modules: list[str] = field(default_factory=list)
    mention_modules: list[str] = field(default_factory=list)
    job_ids: list[str] = field(default_factory=list)
    #: The relative path of one job module and a literal in it an edit can change.
    edit: tuple[str, str] = ("", "")


def _module(index: int) -> str:
    return f"shop/area{index // AREA_SIZE}/module{index}"


def write_tree(root: Path, modules: int = 10_000, seed: int = 8) -> Tree:
    """Write the tree under ``root`` (which must be empty or missing)."""
    rng = random.Random(seed)
    src = root / "src"
    tree = Tree()
    for rel, text in SHARED.items():
        _write(src / rel, text)
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    kinds = ["job"] * 3 + ["mention"] * 6 + ["plain"] * 91
    plan = [rng.choice(kinds) for _ in range(modules)]
    task_names: list[tuple[str, str]] = []  # (module, function) of registered jobs
    for index in range(modules):
        if index % AREA_SIZE == 0:
            _write(src / f"shop/area{index // AREA_SIZE}/__init__.py", "")
        module = _module(index)
        tree.modules.append(f"src/{module}.py")
        kind = plan[index]
        parts = [f'"""Module {index} of the shop ({kind})."""\n\nimport functools\n']
        imports = _imports(rng, index)
        if kind == "job":
            parts.append(JOB_IMPORTS)
        parts.append(imports)
        helpers = [f"helper_{index}_{n}" for n in range(rng.randint(2, 24))]
        for name in helpers:
            count = rng.randint(2, 9)
            parts.append(HELPER.format(name=name, factor=rng.randint(2, 9), count=count))
        for n in range(rng.randint(0, 3)):
            parts.append(CLASS.format(name=f"Service{index}_{n}", factor=rng.randint(2, 9)))
        if kind == "job":
            for n in range(rng.randint(1, 6)):
                function = f"job_{index}_{n}_task"
                template = JOBS[(index + n) % len(JOBS)]
                text = template.format(f=function, k=rng.randint(1, 9), helper=helpers[0])
                parts.append(text)
                task_names.append((module.replace("/", "."), function))
                tree.job_ids.append(f"{module.replace('/', '.')}.{function}")
            tree.job_modules.append(f"src/{module}.py")
        elif kind == "mention":
            if task_names:
                owner, function = rng.choice(task_names)
                parts.insert(2, f"from {owner} import {function}\n")
            else:
                function = "send_task_placeholder"
                parts.insert(2, f"{function} = None\n")
            for n in range(rng.randint(1, 3)):
                template = MENTIONS[(index + n) % len(MENTIONS)]
                parts.append(template.format(n=n, task=function))
            tree.mention_modules.append(f"src/{module}.py")
        _write(src / f"{module}.py", "".join(parts))
    first = tree.job_modules[0] if tree.job_modules else ""
    if first:
        tree.edit = (first, "def job_")
    _write(root / "overlays" / "job_policy.yaml", overlay(sorted(tree.job_ids)))
    return tree


#: Celery settings a real app keeps in modules of its own (no job registered there).
CELERY_SETTINGS = """

CELERY_TASK_ACKS_LATE = True
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_SOFT_TIME_LIMIT = {k}0
CELERY_TASK_ROUTES = {{
    "shop.area{a}.module{m}.*": {{"queue": "orders"}},
    "shop.reports.*": {{"queue": "reports"}},
}}
CELERY_BEAT_SCHEDULE = {{
    "nightly-{n}": {{"task": "shop.area{a}.module{m}.job_{m}_0_task", "schedule": 3600.0}},
}}
"""

#: How ordinary code uses jobs it does not register; ``{task}`` is an imported task function,
#: ``{actor}`` a Dramatiq actor. None of these is a place a job may be registered.
USES = (
    "\n\ndef enqueue_{n}(order_id):\n    result = {task}.delay(order_id)\n"
    '    task_id = result.id\n    logger.info("queued %s", task_id)\n    return task_id\n',
    "\n\ndef later_{n}(order_id, eta):\n"
    '    result = {task}.apply_async((order_id,), eta=eta, queue="orders")\n'
    '    return {{"task_id": result.id, "state": result.state}}\n',
    "\n\ndef ingest_{n}(batch_id):\n    message = {actor}.send(batch_id)\n"
    "    return message.message_id\n",
    '\n\nclass Tracker{n}:\n    """Follows a queued task by its id."""\n\n'
    "    def __init__(self, task_id):\n        self.task_id = task_id\n\n"
    "    def done(self):\n        return AsyncResult(self.task_id).ready()\n",
    "\n\ndef fan_out_{n}(ids):\n    return group({task}.s(i) for i in ids).apply_async()\n",
)

#: Ways that spell a job word where a callee ends without registering anything: the text scan
#: cannot tell them from a registration, so these files are parsed (about one file in 60).
CALLEE_USES = (
    "\n\ndef by_name_{n}(order_id):\n"
    '    return app.send_task("shop.orders.process", args=(order_id,))\n',
    "\n\ndef run_inline_{n}(order_id):\n    return {task}(order_id)\n",
)

REAL_JOB_IMPORTS = """import dramatiq
from celery import shared_task

from shop.common.logging_utils import log_calls
from shop.db.routing import allow_writer
from shop.platform.aliases import billing_task
from shop.worker import app
"""

#: Registrations as real apps write them (Celery and Dramatiq).
REAL_JOBS = (
    '''

@app.task(bind=True, queue="orders", max_retries={k}, acks_late=True)
def {f}(self, order_id):
    """Process one order step."""
    try:
        return {helper}(order_id)
    except ConnectionError as exc:
        raise self.retry(exc=exc, countdown=2 ** self.request.retries)
''',
    '''

@shared_task(queue="reports", soft_time_limit=60 * {k})
@log_calls
def {f}(report_id):
    """Build one report."""
    return {helper}(report_id)
''',
    '''

@dramatiq.actor(queue_name="ingest", max_retries={k}, time_limit={k}000)
def {f}(batch_id):
    """Ingest one batch."""
    return {helper}(batch_id)
''',
    '''

@billing_task
@allow_writer("billing")
def {f}(invoice_id):
    """Capture one invoice."""
    return {helper}(invoice_id)
''',
)

MIGRATION_OP = """        migrations.AddField(
            model_name="order{i}",
            name="field_{j}",
            field=models.CharField(blank=True, default="", max_length={k}, null=True),
        ),
"""


def _large(rng: random.Random, index: int) -> tuple[str, str]:
    """A very large module that registers nothing: a migration or generated code."""
    if index % 2:
        ops = "".join(
            MIGRATION_OP.format(i=index, j=j, k=rng.randint(10, 255))
            for j in range(rng.randint(400, 900))
        )
        text = (
            f'"""Migration {index}."""\n\nfrom django.db import migrations, models\n\n\n'
            "class Migration(migrations.Migration):\n"
            f'    dependencies = [("shop", "{index:04d}_previous")]\n\n'
            f"    operations = [\n{ops}    ]\n"
        )
        return f"shop/migrations/m{index:04d}_auto.py", text
    rows = "".join(
        f'    "CODE_{index}_{j}": ({j}, "{rng.getrandbits(64):016x}", {rng.random():.6f}),\n'
        for j in range(rng.randint(3000, 6000))
    )
    text = f'"""Generated lookup table {index}: do not edit."""\n\nTABLE = {{\n{rows}}}\n'
    return f"shop/generated/table{index}.py", text


def write_real_tree(root: Path, modules: int = 1200, seed: int = 25) -> Tree:
    """A tree shaped like those real codebases (see the module's docstring): about
    1 module in 20 registers jobs, about 3 in 5 use jobs, about 1 in 100 is very large."""
    rng = random.Random(seed)
    src = root / "src"
    tree = Tree()
    for rel, text in SHARED.items():
        _write(src / rel, text)
    for folder in ("migrations", "generated"):
        _write(src / f"shop/{folder}/__init__.py", "")
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    kinds = ["job"] * 5 + ["uses"] * 55 + ["settings"] * 3 + ["large"] * 1 + ["plain"] * 36
    plan = [rng.choice(kinds) for _ in range(modules)]
    tasks: list[tuple[str, str]] = []  # (module, function) of registered Celery jobs
    actors: list[tuple[str, str]] = []
    for index in range(modules):
        kind = plan[index]
        if kind == "large":
            rel, text = _large(rng, index)
            _write(src / rel, text)
            tree.modules.append(f"src/{rel}")
            continue
        if index % AREA_SIZE == 0:
            _write(src / f"shop/area{index // AREA_SIZE}/__init__.py", "")
        module = _module(index)
        dotted = module.replace("/", ".")
        tree.modules.append(f"src/{module}.py")
        parts = [
            f'"""Module {index} of the shop ({kind})."""\n\nimport functools\nimport logging\n',
        ]
        helpers = [f"helper_{index}_{n}" for n in range(rng.randint(2, 16))]
        body: list[str] = []
        for name in helpers:
            count = rng.randint(2, 9)
            body.append(HELPER.format(name=name, factor=rng.randint(2, 9), count=count))
        for n in range(rng.randint(0, 2)):
            body.append(CLASS.format(name=f"Service{index}_{n}", factor=rng.randint(2, 9)))
        imports = [_imports(rng, index)]
        if kind == "job":
            imports.insert(0, REAL_JOB_IMPORTS)
            for n in range(rng.randint(1, 5)):
                template = REAL_JOBS[(index + n) % len(REAL_JOBS)]
                function = f"job_{index}_{n}_{'actor' if template is REAL_JOBS[2] else 'task'}"
                body.append(template.format(f=function, k=rng.randint(1, 9), helper=helpers[0]))
                (actors if template is REAL_JOBS[2] else tasks).append((dotted, function))
                tree.job_ids.append(f"{dotted}.{function}")
            tree.job_modules.append(f"src/{module}.py")
        elif kind == "uses" and tasks and actors:
            task_owner, task = rng.choice(tasks)
            actor_owner, actor = rng.choice(actors)
            imports.append(
                "from celery import group\nfrom celery.result import AsyncResult\n"
                "from shop.worker import app\n"
                f"from {task_owner} import {task}\nfrom {actor_owner} import {actor}\n"
            )
            for n in range(rng.randint(1, 4)):
                template = USES[(index + n) % len(USES)]
                body.append(template.format(n=n, task=task, actor=actor))
            if rng.random() < 0.03:
                template = CALLEE_USES[index % len(CALLEE_USES)]
                body.append(template.format(n=9, task=task))
            tree.mention_modules.append(f"src/{module}.py")
        elif kind == "settings":
            a = rng.randrange(max(1, index // AREA_SIZE))
            m = a * AREA_SIZE
            body.insert(0, CELERY_SETTINGS.format(k=rng.randint(1, 9), a=a, m=m, n=index))
            tree.mention_modules.append(f"src/{module}.py")
        parts.append("".join(imports))
        parts.append("\nlogger = logging.getLogger(__name__)\n")
        parts.extend(body)
        _write(src / f"{module}.py", "".join(parts))
    first = tree.job_modules[0] if tree.job_modules else ""
    if first:
        tree.edit = (first, "def job_")
    _write(root / "overlays" / "job_policy.yaml", overlay(sorted(tree.job_ids)))
    return tree


def _imports(rng: random.Random, index: int) -> str:
    """Imports of helpers from earlier modules: the import graph of an ordinary application."""
    lines = ["from shop.db.routing import allow_writer\n"]
    for _ in range(rng.randint(0, 6) if index else 0):
        other = rng.randrange(index)
        lines.append(f"from {_module(other).replace('/', '.')} import helper_{other}_0\n")
    return "".join(sorted(set(lines)))


def overlay(job_ids: list[str]) -> str:
    """An overlay that signs every required cell of every job."""
    lines = ["jobs:\n"]
    for job_id in job_ids:
        lines += [
            f"  {job_id}:\n",
            '    idempotent: "yes"\n',
            "    poison_policy: park the payload and page the owner\n",
            "    paging_owner: shop-oncall\n",
            "    runtime_class: asynchronous-short\n",
            "    purpose_accepted: Processes one unit of work for the shop.\n",
        ]
    return "".join(lines)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


#: The shapes a tree can be written in (``lookalike``: :mod:`lookalike_tree`).
SHAPES = ("synthetic", "real", "lookalike")


def writer(shape: str) -> Callable[[Path, int, int], Tree]:
    """The function that writes a tree of ``shape``."""
    if shape == "lookalike":
        from lookalike_tree import write_lookalike_tree

        return write_lookalike_tree
    return write_real_tree if shape == "real" else write_tree


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--modules", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--shape", choices=SHAPES, default="synthetic")
    args = parser.parse_args(argv)
    write = writer(args.shape)
    tree = write(args.root, args.modules, args.seed)
    print(
        f"{len(tree.modules)} modules: {len(tree.job_modules)} register "
        f"{len(tree.job_ids)} jobs, {len(tree.mention_modules)} mention jobs"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
