"""A generated tree with what slowed the tool on real code bases: look-alike spellings.

    python benchmarks/repo_tree.py DIR --shape lookalike [--modules 1500] [--seed 8]

Measured on real Celery, RQ and Dramatiq applications (``real_bench.py`` on fetched snapshots),
most files that spell ``task``, ``job`` or ``actor`` register nothing: service classes with
``*_task`` methods, rich progress bars (``progress.add_task``), asyncio (``create_task``), Django
models and migrations with ``task`` fields, tests that mock tasks, and homegrown wrapper modules
(a scheduler's own ``@job``, a ``run_in_background`` helper). A few modules are very large
(5,000 lines). About 1 module in 30 registers jobs through the project's Celery app, and a
declared-style wrapper module re-exports its decorator; the rest import no job framework.
The same seed writes the same bytes.
"""

from __future__ import annotations

import random
from pathlib import Path

from repo_tree import Tree, _write, overlay

PYPROJECT = """[project]
name = "lookalike"
version = "0"

[tool.jobledger]
paths = ["src"]

[tool.jobledger.decorators."shop.background.background_task"]
framework = "celery"
queue = "queue"
"""

CELERY_APP = '''"""The Celery application."""

from celery import Celery

app = Celery("shop")
app.config_from_object("django.conf:settings", namespace="CELERY")
'''

#: A homegrown wrapper around the real app (a module that reaches the framework).
BACKGROUND = '''"""Our own decorator over the app, so jobs get our defaults."""

from shop.worker import app


def background_task(**options):
    options.setdefault("acks_late", True)
    return app.task(**options)
'''

#: A homegrown scheduler whose ``job`` is no job framework's.
SCHEDULER = '''"""A tiny scheduler: its ``job`` decorator keeps a callback, nothing more."""

_CALLBACKS = {}


def job(name):
    def register(fn):
        _CALLBACKS[name] = fn
        return fn

    return register


def run_task(name, *args):
    return _CALLBACKS[name](*args)
'''

JOB = '''

@app.task(bind=True, max_retries={k})
def {f}(self, order_id):
    """Job {f}."""
    return order_id * {k}
'''

WRAPPED_JOB = '''

@background_task(queue="slow")
def {f}(report_id):
    """Job {f}, through our own wrapper."""
    return report_id
'''

SERVICE = '''

class {name}Service:
    """Runs the {name} task list (no background job: a plain method)."""

    def __init__(self, repository):
        self.repository = repository
        self.pending_task = None

    def sync_task(self, task_id):
        task = self.repository.get(task_id)
        task.status = "done"
        return self.run_task(task)

    def run_task(self, task):
        self.pending_task = task
        return task.execute()

    def cancel_task(self, task_id):
        return self.sync_task(task_id) and self.repository.remove(task_id)
'''

PROGRESS = '''

def render_{n}(items):
    """Shows a progress bar while the items are copied."""
    with Progress() as progress:
        task = progress.add_task("copying", total=len(items))
        for item in items:
            item.copy()
            progress.update(task, advance=1)
    return progress
'''

ASYNCIO = '''

async def gather_{n}(urls):
    """Fetches every URL concurrently."""
    tasks = [asyncio.create_task(fetch(url)) for url in urls]
    done_task = asyncio.ensure_future(asyncio.sleep(0))
    await done_task
    return await asyncio.gather(*tasks)
'''

SCHEDULED = '''

@job("nightly_{n}")
def nightly_{n}():
    """Registered with our scheduler, not a job framework."""
    return run_task("cleanup_{n}")
'''

MODEL = '''

class Task{n}(models.Model):
    """A to-do item ({n})."""

    task_id = models.CharField(max_length=64)
    task_name = models.CharField(max_length=200)
    actor = models.ForeignKey("auth.User", on_delete=models.CASCADE)
    job = models.ForeignKey("shop.Job", null=True, on_delete=models.SET_NULL)

    def mark_task(self, state):
        self.task_name = state
        self.save(update_fields=["task_name"])
'''

TEST = '''

def test_{n}_schedules_the_task(mock_task, actor):
    """The view hands the task over."""
    task = mock_task(actor=actor)
    result = task.run_task()
    assert result.task_id == "{n}"
    assert actor.job is None
'''

HELPER = """

def helper_{n}(value):
    total = 0
    for step in range({k}):
        total += value * step
    return total
"""

LARGE_ROW = """
def generated_{n}_{j}(payload):
    task = payload.get("task_{j}")
    if task is None:
        return None
    return {{"task": task, "job": payload.get("job"), "n": {j}}}
"""


def write_lookalike_tree(root: Path, modules: int = 1500, seed: int = 8) -> Tree:
    """A tree where most ``task``/``job``/``actor`` spellings register nothing (see above)."""
    rng = random.Random(seed)
    src = root / "src"
    tree = Tree()
    _write(root / "pyproject.toml", PYPROJECT)
    for rel, text in {
        "shop/__init__.py": "",
        "shop/worker.py": CELERY_APP,
        "shop/background.py": BACKGROUND,
        "shop/scheduler.py": SCHEDULER,
        "shop/tests/__init__.py": "",
    }.items():
        _write(src / rel, text)
    kinds = ["job"] * 2 + ["wrapped"] * 1 + ["service"] * 14 + ["progress"] * 6 + ["asyncio"] * 6
    kinds += ["scheduled"] * 5 + ["model"] * 10 + ["test"] * 20 + ["plain"] * 35 + ["large"] * 1
    for index in range(modules):
        kind = rng.choice(kinds)
        area = f"shop/area{index // 50}"
        if index % 50 == 0:
            _write(src / area / "__init__.py", "")
        rel = f"{area}/{kind}_{index}.py"
        if kind == "test":
            rel = f"shop/tests/test_{index}.py"
        dotted = rel[:-3].replace("/", ".")
        head = f'"""Module {index} ({kind})."""\n\nimport logging\n'
        body: list[str] = [
            HELPER.format(n=f"{index}_{n}", k=rng.randint(2, 9)) for n in range(rng.randint(1, 6))
        ]
        if kind == "job":
            head += "\nfrom shop.worker import app\n"
            for n in range(rng.randint(1, 4)):
                function = f"job_{index}_{n}"
                body.append(JOB.format(f=function, k=rng.randint(1, 9)))
                tree.job_ids.append(f"{dotted}.{function}")
            tree.job_modules.append(f"src/{rel}")
        elif kind == "wrapped":
            head += "\nfrom shop.background import background_task\n"
            function = f"report_{index}"
            body.append(WRAPPED_JOB.format(f=function))
            tree.job_ids.append(f"{dotted}.{function}")
            tree.job_modules.append(f"src/{rel}")
        elif kind == "service":
            body.append(SERVICE.format(name=f"Sync{index}"))
            tree.mention_modules.append(f"src/{rel}")
        elif kind == "progress":
            head += "\nfrom rich.progress import Progress\n"
            body += [PROGRESS.format(n=f"{index}_{n}") for n in range(rng.randint(1, 3))]
            tree.mention_modules.append(f"src/{rel}")
        elif kind == "asyncio":
            head += "\nimport asyncio\n\nfrom shop.net import fetch\n"
            body += [ASYNCIO.format(n=f"{index}_{n}") for n in range(rng.randint(1, 3))]
            tree.mention_modules.append(f"src/{rel}")
        elif kind == "scheduled":
            head += "\nfrom shop.scheduler import job, run_task\n"
            body += [SCHEDULED.format(n=f"{index}_{n}") for n in range(rng.randint(1, 3))]
            tree.mention_modules.append(f"src/{rel}")
        elif kind == "model":
            head += "\nfrom django.db import models\n"
            body += [MODEL.format(n=f"{index}_{n}") for n in range(rng.randint(1, 4))]
            tree.mention_modules.append(f"src/{rel}")
        elif kind == "test":
            head += "\nimport pytest\n"
            body += [TEST.format(n=f"{index}_{n}") for n in range(rng.randint(2, 8))]
            tree.mention_modules.append(f"src/{rel}")
        elif kind == "large":
            # about 5,000 lines of generated code that spells task and job everywhere
            body += [LARGE_ROW.format(n=index, j=j) for j in range(830)]
            tree.mention_modules.append(f"src/{rel}")
        _write(src / rel, head + "\nlogger = logging.getLogger(__name__)\n" + "".join(body))
        tree.modules.append(f"src/{rel}")
    if tree.job_modules:
        tree.edit = (tree.job_modules[0], "def job_")
    _write(root / "overlays" / "job_policy.yaml", overlay(sorted(tree.job_ids)))
    return tree
