"""How precise the ledger is on a real-shaped tree: jobs found, located problems, false alarms.

    python benchmarks/precision_bench.py [--packages 40] [--jobledger PATH] [--keep DIR]
    python benchmarks/precision_bench.py --root DIR [--jobledger PATH]   # count a real tree

It writes a seeded tree shaped like real applications: jobs of every framework (Celery, RQ,
Dramatiq, Huey, declared wrappers in decorator and call form) mixed, in realistic proportions,
with what only looks like them: service classes with ``*_task`` methods and ``send_task``,
progress bars (``progress.add_task``), asyncio (``loop.create_task``, ``tg.create_task``),
Pyramid's and Celery's ``add_periodic_task``, calls and sends of an actor, parameters, locals and
comprehension variables named like the decorator, and a tests folder. Each planted registration
carries a marker comment on its line (``# bench: job``, ``# bench: problem``): the expected
rows and located problems. Then it runs ``jobledger extract`` (any build: ``--jobledger``) and
prints one table: jobs found against planted, located problems against planted, false alarms
(problems at no planted place) and misses (planted places with no row or problem).

With ``--root`` it counts the rows and problems of any tree (no markers: no expectations).
Nothing is asserted: the exit status is non-zero only when the tool crashes (a traceback, or
no ledger written), so a change that adds noise is seen in the numbers, not hidden by a failure.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

JOB = "# bench: job"
PROBLEM = "# bench: problem"

PYPROJECT = """[tool.jobledger]
paths = ["."]
exclude = []

[tool.jobledger.decorators."acme.huey_app.task_with_backoff"]
framework = "huey"
max_retries = "retries"

[tool.jobledger.decorators."acme.rq_compat.job"]
framework = "rq"
"""

PLATFORM = {
    "__init__.py": "",
    "celery_app.py": 'from celery import Celery\n\napp = Celery("bench")\n',
    "huey_app.py": """import functools

from huey import RedisHuey

huey = RedisHuey("bench")


def task_with_backoff(retries=3, retry_backoff=1.15):
    def deco(fn):
        @functools.wraps(fn)
        def inner(*args, task=None, **kwargs):
            try:
                return fn(*args, **kwargs)
            except Exception:
                task.retry_delay *= retry_backoff
                raise

        return huey.task(retries=retries, context=True)(inner)

    return deco
""",
    "rq_compat.py": """import functools

from django_rq import job as _rq_job


def job(*args, **kwargs):
    def wrap(func):
        @functools.wraps(func)
        def context_aware(*a, **kw):
            return func(*a, **kw)

        return _rq_job(*args, **kwargs)(context_aware)

    return wrap
""",
}


def _celery(rng: random.Random, pkg: str) -> str:
    jobs = "\n\n".join(
        f'@app.task(queue="{pkg}")  {JOB}\ndef sync_{n}(item_id):\n    """Sync {n}."""\n'
        if n % 2
        else f'@shared_task(max_retries={n})  {JOB}\ndef export_{n}(item_id):\n    """Export."""\n'
        for n in range(rng.randint(2, 5))
    )
    return f'''"""{pkg}'s Celery jobs and the service that enqueues them."""

from celery import shared_task
from rich.progress import Progress

from acme.celery_app import app


{jobs}

class ExportService:
    def __init__(self, builder):
        self.builder = builder

    def create_export_task(self, user):
        return user

    def request(self, user):
        self.create_export_task(user)
        self.run_task(user)
        self.builder.get_task(user.id)
        app.send_task("{pkg}.tasks.sync_1", args=(user.id,))

    @classmethod
    def later(cls, user):
        cls.save_and_schedule_task(user)


def import_all(rows, task=None):
    task = task or ExportService
    with Progress() as progress:
        bar = progress.add_task("[cyan]Importing", total=len(rows))
        for row in rows:
            progress.advance(bar)
    return [task for task in rows]


def make_tenant_job(tenant):
    @app.task(name=f"cleanup_{{tenant}}")  {PROBLEM}
    def cleanup():
        """Clean one tenant."""

    return cleanup


@app.on_after_configure.connect
def setup_periodic_tasks(sender, **kwargs):
    sender.add_periodic_task(3600.0, ExportService, name="hourly")


def includeme(config):
    config.add_periodic_task(3600, ExportService)
'''


def _dramatiq(rng: random.Random, pkg: str) -> str:
    jobs = "\n\n".join(
        f'@dramatiq.actor(queue_name="{pkg}")  {JOB}\ndef notify_{n}(user_id):\n    """N."""\n'
        for n in range(rng.randint(1, 3))
    )
    return f'''"""{pkg}'s actors, one built from a callable object."""

import asyncio

import dramatiq


class Notifier:
    def __call__(self, user_id):
        """Tell a user."""


notify = dramatiq.actor(Notifier())  {PROBLEM}


{jobs}

def signup(user_id):
    notify(user_id)
    notify.send(user_id)


def password_reset(user_id):
    from {pkg}.actors import notify as tell

    tell(user_id)


async def fan_out(items):
    loop = asyncio.get_event_loop()
    loop.create_task(fetch(items[0]))
    async with asyncio.TaskGroup() as tg:
        for item in items:
            tg.create_task(fetch(item))


async def fetch(item):
    return item
'''


def _rq_huey(rng: random.Random, pkg: str) -> str:
    return f'''"""{pkg}'s RQ and Huey jobs, some through the declared wrapper recipes."""

from django_rq import job

from acme.huey_app import huey, task_with_backoff
from acme.rq_compat import job as context_job
from shop.models import Job


@job("{pkg}")  {JOB}
def reindex(product_id):
    """Reindex."""


@huey.task(retries={rng.randint(0, 5)})  {JOB}
def warm_cache(key):
    """Warm."""


@task_with_backoff(retries=5)  {JOB}
def sync_inventory(store_id):
    """Sync stock."""


@context_job("{pkg}-emails")  {JOB}
def send_receipt(order_id):
    """Mail the receipt."""


def retry(job_id):
    job = Job.objects.get(pk=job_id)
    job.requeue()
    return job
'''


def _test(pkg: str) -> str:
    return f"""from acme.celery_app import app
from {pkg}.tasks import ExportService


class TestExports:
    def test_request(self):
        ExportService(None).run_task(1)

    def test_throwaway_job(self):
        @app.task(max_retries=2)  {PROBLEM}
        def flaky():
            raise RuntimeError

        assert flaky.max_retries == 2
"""


def write_tree(root: Path, packages: int, seed: int) -> None:
    rng = random.Random(seed)
    (root / "pyproject.toml").write_text(PYPROJECT)
    for name, text in PLATFORM.items():
        (root / "acme").mkdir(exist_ok=True)
        (root / "acme" / name).write_text(text)
    (root / "shop").mkdir()
    (root / "shop" / "__init__.py").write_text("")
    (root / "shop" / "models.py").write_text("class Job:\n    objects = None\n")
    (root / "tests").mkdir()
    for n in range(packages):
        pkg = f"app{n:03d}"
        folder = root / pkg
        folder.mkdir()
        (folder / "__init__.py").write_text("")
        (folder / "tasks.py").write_text(_celery(rng, pkg))
        (folder / "actors.py").write_text(_dramatiq(rng, pkg))
        (folder / "jobs.py").write_text(_rq_huey(rng, pkg))
        for plain in range(rng.randint(2, 6)):  # most modules register nothing
            (folder / f"views_{plain}.py").write_text(
                f"from {pkg}.tasks import ExportService\n\n\ndef view(request):\n"
                "    return ExportService(None).request(request.user)\n"
            )
        (root / "tests" / f"test_{pkg}.py").write_text(_test(pkg))


def planted(root: Path) -> tuple[set[tuple[str, int]], set[tuple[str, int]]]:
    jobs: set[tuple[str, int]] = set()
    problems: set[tuple[str, int]] = set()
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if line.rstrip().endswith(JOB):
                jobs.add((rel, number))
            elif line.rstrip().endswith(PROBLEM):
                problems.add((rel, number))
    return jobs, problems


def run(jobledger: str, root: Path) -> tuple[dict[str, object] | None, float, str]:
    out = root / ".bench-ledger.json"
    start = time.perf_counter()
    done = subprocess.run(
        [jobledger, "extract", "--no-cache", "-q", "--root", str(root), "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - start
    if "Traceback" in done.stderr or not out.is_file():
        return None, seconds, done.stderr[-2000:]
    return json.loads(out.read_text()), seconds, ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packages", type=int, default=40)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--jobledger", default=shutil.which("jobledger") or "jobledger")
    parser.add_argument("--root", type=Path, help="count the rows and problems of this tree")
    parser.add_argument("--keep", type=Path, help="write the generated tree here and keep it")
    args = parser.parse_args()
    if args.root is not None:
        ledger, seconds, crash = run(args.jobledger, args.root.resolve())
        if ledger is None:
            print(crash, file=sys.stderr)
            return 1
        kinds = Counter(item["pattern"] for item in ledger["unsupported"])  # type: ignore[union-attr]
        print("| tree | jobs | problems | by pattern | seconds |\n|---|---:|---:|---|---:|")
        print(
            f"| {args.root.name} | {len(ledger['jobs'])} | {len(ledger['unsupported'])} | "  # type: ignore[arg-type]
            f"{dict(sorted(kinds.items()))} | {seconds:.2f} |"
        )
        return 0
    temp = None if args.keep else tempfile.TemporaryDirectory()
    root = args.keep.resolve() if args.keep else Path(temp.name)  # type: ignore[union-attr]
    root.mkdir(parents=True, exist_ok=True)
    write_tree(root, args.packages, args.seed)
    jobs_planted, problems_planted = planted(root)
    ledger, seconds, crash = run(args.jobledger, root)
    if ledger is None:
        print(crash, file=sys.stderr)
        return 1
    rows = {(job["path"], job["line"]) for job in ledger["jobs"]}  # type: ignore[union-attr]
    located = [
        (item["path"], item["line"])
        for item in ledger["unsupported"]  # type: ignore[union-attr]
        if not item.get("accepted")
    ]
    false_alarms = [place for place in located if place not in problems_planted]
    missed = sorted((jobs_planted - rows) | (problems_planted - set(located)))
    files = sum(1 for _ in root.rglob("*.py"))
    print(f"tree: {args.packages} packages, {files} files (seed {args.seed}); {args.jobledger}")
    print("| measure | planted | found |\n|---|---:|---:|")
    print(f"| jobs | {len(jobs_planted)} | {len(rows & jobs_planted)} (rows: {len(rows)}) |")
    print(f"| located problems | {len(problems_planted)} | {len(located)} |")
    print(f"| false alarms (no planted place) | 0 | {len(false_alarms)} |")
    print(f"| misses (planted, not found) | 0 | {len(missed)} |")
    print(f"| extract seconds | | {seconds:.2f} |")
    kinds = Counter(
        line.strip().split("(")[0][:40]
        for path, number in false_alarms[:2000]
        for line in [(root / path).read_text().splitlines()[number - 1]]
    )
    for text, count in kinds.most_common(8):
        print(f"  false alarm x{count}: {text}")
    for path, number in missed[:8]:
        print(f"  missed: {path}:{number}")
    if temp is not None:
        temp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
