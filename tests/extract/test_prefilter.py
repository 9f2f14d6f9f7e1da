"""The pre-filter is sound: skipping the files it rules out never changes the ledger.

Every case folder, every bundled example and the extractor's fuzz trees (``test_fuzz.py``) are
extracted twice: with the pre-filter (files that provably cannot register a job or define an
alias of a job decorator are not parsed, places whose callee cannot be a job decorator are not
resolved) and without it (every file parsed, every place judged). The two ledgers must be the
same bytes. The argument itself is in :mod:`pytest_jobledger.extract.prefilter`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pytest_jobledger.extract import engine
from pytest_jobledger.extract.frameworks import FRAMEWORKS
from pytest_jobledger.extract.prefilter import (
    Words,
    framework_words,
    iter_words,
    names_as_written,
    text_facts,
)
from pytest_jobledger.extract.reduce import reduce_source
from pytest_jobledger.project import Config, load_config

REPO = Path(__file__).resolve().parents[2]
CASES_DIR = REPO / "tests" / "cases" / "extract"
CASES = sorted(path for path in CASES_DIR.iterdir() if (path / "expected.json").is_file())
EXAMPLES = sorted(path for path in (REPO / "examples").iterdir() if path.is_dir())
TREES = [*CASES, *EXAMPLES]


def _config(root: Path) -> Config:
    return load_config(root=root).without_cache()


def filtered_and_reference(config: Config) -> tuple[str, str]:
    """The ledger with the pre-filter, and the one that parses and judges everything."""
    fast = engine.extract(config, workers=1).ledger.dumps()
    reference = engine.extract(config, prefilter=False, workers=1).ledger.dumps()
    return fast, reference


@pytest.mark.parametrize("tree", TREES, ids=[f"{p.parent.name}/{p.name}" for p in TREES])
def test_the_prefilter_changes_no_ledger(tree: Path) -> None:
    fast, reference = filtered_and_reference(_config(tree))
    assert fast == reference


def test_the_prefilter_skips_files_that_cannot_register(tmp_path: Path) -> None:
    """The point of it: a file that names no job decorator is never parsed."""
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "__init__.py").write_text("")
    (tmp_path / "shop" / "worker.py").write_text('from celery import Celery\napp = Celery("s")\n')
    (tmp_path / "shop" / "tasks.py").write_text(
        "from shop.worker import app\n\n\n@app.task\ndef f():\n    pass\n"
    )
    (tmp_path / "shop" / "views.py").write_text(
        "from shop.tasks import f\n\n\ndef view():\n    task_id = f.delay()\n    return task_id\n"
    )
    extractor = engine.Extractor(_config(tmp_path), workers=1)
    ledger = extractor.run().ledger
    assert [job.id for job in ledger.jobs] == ["shop.tasks.f"]
    assert extractor.counts.parsed == 1


LOOKALIKES = {
    "shop/progress.py": (
        "from rich.progress import Progress\n\n\ndef copy(items):\n"
        "    with Progress() as progress:\n        task = progress.add_task('copy', total=3)\n"
        "        progress.update(task, advance=1)\n"
    ),
    "shop/gather.py": (
        "import asyncio\n\n\nasync def gather(urls):\n"
        "    tasks = [asyncio.create_task(u) for u in urls]\n"
        "    return await asyncio.gather(*tasks)\n"
    ),
    "shop/service.py": (
        "class SyncService:\n    def sync_task(self, task):\n        return self.run_task(task)\n\n"
        "    def run_task(self, task):\n        return task.execute()\n"
    ),
}


def test_a_file_that_only_spells_a_job_word_is_not_parsed(tmp_path: Path) -> None:
    """Progress bars, asyncio and a service's ``*_task`` methods are candidates by their text;
    CPython's tree proves they bind nothing that leads to a job decorator, so libcst never
    parses them, and the ledger is the one that parses everything."""
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "__init__.py").write_text("")
    (tmp_path / "shop" / "worker.py").write_text('from celery import Celery\napp = Celery("s")\n')
    (tmp_path / "shop" / "tasks.py").write_text(
        "from shop.worker import app\n\n\n@app.task\ndef f():\n    pass\n"
    )
    for rel, text in LOOKALIKES.items():
        (tmp_path / rel).write_text(text)
    extractor = engine.Extractor(_config(tmp_path), workers=1)
    ledger = extractor.run().ledger
    assert [job.id for job in ledger.jobs] == ["shop.tasks.f"]
    assert (extractor.counts.parsed, extractor.counts.proved) == (1, 3)
    assert ledger.dumps() == engine.extract(_config(tmp_path), prefilter=False).ledger.dumps()


def test_a_look_alike_that_can_reach_a_job_decorator_is_parsed(tmp_path: Path) -> None:
    """The proof fails, and the file is parsed, when a place's name may lead somewhere: bound by
    an import of a scanned module (which may lack the name), twice at module level, or
    an attribute named exactly like a framework's decorator on an unknown object."""
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "__init__.py").write_text("")
    (tmp_path / "shop" / "util.py").write_text("def run_task(x):\n    return x\n")
    (tmp_path / "shop" / "imported.py").write_text(
        "from shop.util import run_task\n\n\n@run_task\ndef g():\n    pass\n"
    )
    (tmp_path / "shop" / "twice.py").write_text(
        "import os\nif os.sep:\n    def my_task(f):\n        return f\nelse:\n"
        "    def my_task(f):\n        return f\n\n\n@my_task\ndef h():\n    pass\n"
    )
    (tmp_path / "shop" / "factory.py").write_text(
        "def make(x):\n    @x.task\n    def k():\n        pass\n"
    )
    extractor = engine.Extractor(_config(tmp_path), workers=1)
    ledger = extractor.run().ledger
    assert (extractor.counts.parsed, extractor.counts.proved) == (3, 1)  # util.py's own def
    assert sorted(item.pattern.value for item in ledger.unsupported) == [
        "ambiguous-name",
        "factory-registration",
    ]
    assert ledger.dumps() == engine.extract(_config(tmp_path), prefilter=False).ledger.dumps()


def test_canonical_spellings_keep_the_last_part() -> None:
    """Point 1 of the argument: a canonical spelling never changes the last part of a decorator
    key. A whole name mapped to a decorator key (``celery.app.shared_task``) keeps it; any other
    mapping renames a prefix (an app, a class), after which the spelled parts are appended as
    they are, so the last part spelled is the key's last part."""
    keys: set[str] = set()
    for framework in FRAMEWORKS.values():
        keys |= set(framework.decorators) | set(framework.register_methods)
    for framework in FRAMEWORKS.values():
        for spelled, canonical in framework.canonical.items():
            if canonical in keys:
                assert spelled.rsplit(".", 1)[-1] == canonical.rsplit(".", 1)[-1], spelled


def test_every_framework_word_is_relevant() -> None:
    words = Words.of(load_config(root=CASES_DIR / "celery_app_task_bare"))
    for word in framework_words():
        assert words.relevant(word), word


@pytest.mark.parametrize(
    "source",
    [
        "@app.task\ndef f(): pass\n",
        "@app.task(queue='q')\ndef f(): pass\n",
        "@app.task  # trailing\ndef f(): pass\n",
        "@(app\n .task)\ndef f(): pass\n",
        "@app. \\\n  task\ndef f(): pass\n",
        "app.task (\n  f)\n",
        "app.task(queue='q')(f)\n",
        "app.register_task(F())\n",
        "x = [app.task(f) for f in fs]\n",
        "@actor\ndef f(): pass\n",
        "@job('q')\ndef f(): pass\n",
        "@shared_task\nasync def f(): pass\n",
        "@db_periodic_task(crontab())\ndef f(): pass\n",
        "@[app.task][0]\ndef f(): pass\n",
        "(t,) = map(app.task, [f])\n",
        "REG = {'f': app.task}\n",
        "r = getattr(app, 'task')\n",
        "def f():\n    return app.task\n",
        "d = shared_task if x else None\n",
        "import os; REG = [shared_task]\n",
    ],
)
def test_every_registration_shape_is_a_site(source: str) -> None:
    """Point 3: each shape a registration takes puts a relevant word where a callee ends."""
    words = Words.of(load_config(root=CASES_DIR / "celery_app_task_bare"))
    assert text_facts(source, words).candidate(words), source


@pytest.mark.parametrize(
    "source",
    [
        "from shop.tasks import send_task_email\n\nsend_task_email.delay(1)\n",
        "task_id = result.id\nprint(task_id)\n",
        "# a comment about a task\nx = 1\n",
        "from shop.tasks import send_task\nfrom shop import send_task as st\n",
    ],
)
def test_mentions_that_register_nothing_are_not_sites(source: str) -> None:
    words = Words.of(load_config(root=CASES_DIR / "celery_app_task_bare"))
    assert not text_facts(source, words).candidate(words), source


def test_a_framework_name_spelled_only_in_text_is_proved_inert(tmp_path: Path) -> None:
    """A language code ``"saq"`` in a list of choices is no import of SAQ: CPython's tree shows
    the module imports no framework, so libcst never parses it; the module that does import
    SAQ is still parsed, and its settings list the job."""
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "__init__.py").write_text("")
    (tmp_path / "site" / "languages.py").write_text(
        'LANGUAGES = [("sah", "Sakha"), ("saq", "Samburu")]\n# saq is a language here\n'
    )
    (tmp_path / "site" / "worker.py").write_text(
        "import saq\n\n\nasync def deliver(ctx):\n    pass\n\n\n"
        'settings = {"functions": [deliver]}\n'
    )
    extractor = engine.Extractor(_config(tmp_path), workers=1)
    ledger = extractor.run().ledger
    assert [job.id for job in ledger.jobs] == ["site.worker.deliver"]
    assert (extractor.counts.parsed, extractor.counts.proved) == (1, 1)
    assert ledger.dumps() == engine.extract(_config(tmp_path), prefilter=False).ledger.dumps()


@pytest.mark.parametrize(
    ("text", "as_written"),
    [
        ("def f():\n    return 1\n", True),
        ('GREETING = "Grüße, ☃"  # ✓\n', True),
        ("café = 1\n", True),  # a name past ASCII, already NFKC
        ("\uff54\uff41\uff53\uff4b = 1\n", False),  # fullwidth: Python reads it as ``task``
        ('NOTE = "ﬁle"\n', False),  # a ligature in a string: not told from a name, so normalised
    ],
)
def test_names_are_read_as_written_only_when_already_nfkc(text: str, as_written: bool) -> None:
    assert names_as_written(text) is as_written


def test_a_body_past_ascii_is_left_out_like_an_ascii_one() -> None:
    """Text past ASCII in strings does not stop a body that spells nothing relevant from being
    left out of what libcst parses; a body that spells a relevant word is kept."""
    text = (
        'def helper():\n    return "12,50 €"\n\n\n'
        "def schedule():\n    return envoyer.delay(1)  # ☂\n"
    )
    words = Words.of(load_config(root=REPO))
    relevant = [start for _, start, _ in iter_words(text, words)]
    reduced = reduce_source(text, ast.parse(text), relevant)
    assert reduced is not None
    assert reduced[0] == (
        "def helper():\n    ...\ndef schedule():\n    return envoyer.delay(1)  # ☂\n"
    )
    assert "€" not in reduced[0]


def test_a_test_module_calling_imported_jobs_is_proved_from_their_defs(tmp_path: Path) -> None:
    """A module that imports jobs from the tree and calls them (a test) binds nothing that
    registers: the resolver finds each imported name to be a plain def, so libcst parses the
    module the jobs live in, never the test; when a name is no plain def (an alias of the job
    decorator), the test is parsed and its registration listed."""
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "__init__.py").write_text("")
    (tmp_path / "shop" / "tasks.py").write_text(
        "from celery import shared_task\n\nretry_task = shared_task\n\n\n"
        "@shared_task\ndef send_report_task():\n    pass\n"
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_calls.py").write_text(
        "from shop.tasks import send_report_task\n\n\n"
        "def test_it():\n    send_report_task()\n    handed(send_report_task)\n"
    )
    extractor = engine.Extractor(_config(tmp_path), workers=1)
    ledger = extractor.run().ledger
    assert [job.id for job in ledger.jobs] == ["shop.tasks.send_report_task"]
    assert (extractor.counts.parsed, extractor.counts.proved) == (1, 1)
    (tmp_path / "tests" / "test_alias.py").write_text(
        "from shop.tasks import retry_task\n\n\ndef flaky():\n    pass\n\n\n"
        "flaky_task = retry_task(flaky)\n"
    )
    extractor = engine.Extractor(_config(tmp_path), workers=1)
    ledger = extractor.run().ledger
    assert [job.id for job in ledger.jobs] == [
        "shop.tasks.send_report_task",
        "tests.test_alias.flaky",
    ]
    assert (extractor.counts.parsed, extractor.counts.proved) == (2, 1)
    assert ledger.dumps() == engine.extract(_config(tmp_path), prefilter=False).ledger.dumps()
