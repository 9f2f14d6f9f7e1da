"""Repository text stays text through the template and include plugins of real docs builds.

A docs build may run the page's raw text through pymdownx snippets (``--8<--`` includes a file
of the build host), mkdocs-macros (Jinja: ``{{ }}`` runs the site's macros) or MyST's
``substitution`` extension (Jinja again, in Sphinx). A docstring and signed cells of one job of
the celery example are written with every syntax of those tools; the sites are built for real,
with a control page proving each plugin is on, and a canary for each route: a macro that writes a
file, a secret file a snippet would publish, a substitution whose value would show. Nothing may
run, nothing may leak, and every hostile line must be shown as written.
"""

from __future__ import annotations

import html
import subprocess
from pathlib import Path

import pytest

from ._site import BIN, HOSTILE_JOB, OVERLAY, build, copy_example, parse

SECRET = "SNIPPET-SECRET-CANARY"
PUBLIC = "PUBLIC-SNIPPET-TEXT"
MACRO_OUTPUT = "MACRO-CANARY-RAN"
CONTROL = "CONTROL-MACRO-RAN"
SUBSTITUTION = "MYST-SUBSTITUTION-CANARY"
#: ``{{ "EVALUATED" ~ "-JOINED" }}`` evaluated (Jinja's string join).
EVALUATED = "EVALUATED-JOINED"
MYST_CONTROL = "MYST-CONTROL-ON"
#: Lines a docstring or a signed cell may hold, one per syntax of the ecosystem and variants.
HOSTILE_LINES = [
    "{{ canary() }}",
    "{{canary()}}",
    "{%- set x = canary() %}{{ x }}",
    "{# a comment that would swallow text #}",
    '{{ "EVALUATED" ~ "-JOINED" }}',
    "{{ config.site_name }}",
    "{{ canary }}",
    "{canary}`x`",
    "{eval-rst}`x`",
    '--8<-- "secret.env"',
    ';--8<-- "secret.env"',
    "  --8<-- 'secret.env'",
    "-8<- secret.env",
    "--8<--",
    "secret.env",
    "--8<--",
    "{!secret.env!}",
    "```{include} secret.env",
    "```",
]
#: The lines as one YAML double-quoted scalar (a table cell): joined, quotes escaped.
CELL = " ".join(HOSTILE_LINES).replace('"', '\\"')

MACROS_MODULE = """\
from pathlib import Path


def define_env(env):
    @env.macro
    def canary():
        Path(__file__).with_name("MACRO_RAN").write_text("ran")
        return "MACRO-CANARY-RAN"

    @env.macro
    def control():
        return "CONTROL-MACRO-RAN"
"""
MKDOCS_YML = """\
site_name: Acme shop
markdown_extensions:
  - pymdownx.snippets:
      base_path: ["."]
      check_paths: false
plugins:
  - macros
{jobledger}"""
CONTROL_PAGE = '# Control\n\n{{ control() }}\n\n--8<-- "public.txt"\n'
SPHINX_CONF = """\
project = "Acme shop"
extensions = ["myst_parser", "pytest_jobledger.docs.sphinx"]
myst_enable_extensions = ["substitution"]
myst_substitutions = {"canary": "MYST-SUBSTITUTION-CANARY", "control": "MYST-CONTROL-ON"}
"""
SPHINX_INDEX = """\
# Acme shop

```{toctree}
control
runbook
rendered
```
"""
SPHINX_CONTROL = '# Control\n\n{{ control }} and {{ "CONTROL" ~ "-JOINED" }}\n'
SPHINX_DIRECTIVE = "# Runbook\n\n```{jobledger-runbook}\n:root: ..\n```\n"


def _hostile_project(dest: Path) -> Path:
    """The celery example with one job's docstring and free-text cells written in every syntax,
    its ledger extracted again, a secret file and a public one beside it."""
    root = copy_example(dest)
    source = root / "src" / "acme_shop" / "billing" / "tasks.py"
    text = source.read_text("utf-8")
    docstring = "\n    ".join(["Charge a captured authorization.", "", *HOSTILE_LINES])
    text = text.replace(
        '"""Charge a captured authorization and write a ledger row."""', f'"""{docstring}\n    """'
    )
    source.write_text(text, encoding="utf-8")
    overlay = root / OVERLAY
    text = overlay.read_text("utf-8")
    text = text.replace(
        "    poison_policy: park payload; page billing-oncall after 3 parks\n",
        f'    poison_policy: "{CELL}"\n',
    )
    purpose = "".join(f"      {line}\n" for line in HOSTILE_LINES)
    signed = "      Charges a captured authorization and writes a ledger row.\n"
    text = text.replace(signed, purpose)
    overlay.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [str(BIN / "jobledger"), "extract", "--root", str(root), "-q"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (root / "secret.env").write_text(f"TOKEN={SECRET}\n", encoding="utf-8")
    (root / "public.txt").write_text(f"{PUBLIC}\n", encoding="utf-8")
    return root


def _rendered(root: Path) -> str:
    """``jobledger render``'s Markdown of the project: what a team commits as a docs page."""
    done = subprocess.run(
        [str(BIN / "jobledger"), "render", "--root", str(root), "-o", "-"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _built_text(site: Path) -> str:
    """Every file the build wrote (pages, the search index), entities decoded."""
    return "\n".join(
        html.unescape(path.read_text("utf-8", errors="replace"))
        for path in sorted(site.rglob("*"))
        if path.is_file() and path.suffix in (".html", ".json", ".js", ".txt", ".xml")
    )


def _assert_nothing_ran(root: Path, site: Path) -> None:
    built = _built_text(site)
    assert not (root / "MACRO_RAN").exists(), "a docstring or a cell ran a macro"
    for canary in (SECRET, MACRO_OUTPUT, SUBSTITUTION, EVALUATED):
        assert canary not in built, f"{canary} reached the site"


def _assert_shown_as_written(body: str) -> None:
    """Each hostile line is on the page as text (the docstring keeps its lines)."""
    for line in HOSTILE_LINES:
        assert line.strip() in body, line


@pytest.fixture(scope="module")
def mkdocs_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The plugin's page and ``jobledger render``'s page, in one site with snippets and macros."""
    root = _hostile_project(tmp_path_factory.mktemp("inert-mkdocs"))
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text("# Acme shop\n", encoding="utf-8")
    (root / "docs" / "control.md").write_text(CONTROL_PAGE, encoding="utf-8")
    (root / "docs" / "rendered.md").write_text(_rendered(root), encoding="utf-8")
    (root / "main.py").write_text(MACROS_MODULE, encoding="utf-8")
    (root / "mkdocs.yml").write_text(
        MKDOCS_YML.format(jobledger="  - jobledger:\n      root: .\n"), encoding="utf-8"
    )
    done = build(["mkdocs", "build", "-q", "-d", "site"], root)
    assert done.returncode == 0, done.stderr
    return root


def test_the_mkdocs_plugins_are_on(mkdocs_site: Path) -> None:
    body = parse(mkdocs_site / "site" / "control" / "index.html").body
    assert CONTROL in body
    assert PUBLIC in body


def test_nothing_runs_or_leaks_through_snippets_and_macros(mkdocs_site: Path) -> None:
    _assert_nothing_ran(mkdocs_site, mkdocs_site / "site")


@pytest.mark.parametrize("page", ["jobs", "rendered"])
def test_hostile_text_is_shown_as_written_on_an_mkdocs_page(mkdocs_site: Path, page: str) -> None:
    parsed = parse(mkdocs_site / "site" / page / "index.html")
    _assert_shown_as_written(parsed.body)
    assert HOSTILE_JOB in parsed.body
    assert "Job runbook: acme-shop" in parsed.headings


def test_the_plugin_page_keeps_its_table_of_contents(mkdocs_site: Path) -> None:
    page = (mkdocs_site / "site" / "jobs" / "index.html").read_text("utf-8")
    assert 'href="#jobs-by-queue"' in page  # the theme's table of contents, from the runbook


@pytest.fixture(scope="module")
def sphinx_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directive in a MyST page and ``jobledger render``'s page, with MyST substitutions."""
    root = _hostile_project(tmp_path_factory.mktemp("inert-sphinx"))
    docs = root / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(SPHINX_CONF, encoding="utf-8")
    (docs / "index.md").write_text(SPHINX_INDEX, encoding="utf-8")
    (docs / "control.md").write_text(SPHINX_CONTROL, encoding="utf-8")
    (docs / "runbook.md").write_text(SPHINX_DIRECTIVE, encoding="utf-8")
    (docs / "rendered.md").write_text(_rendered(root), encoding="utf-8")
    (docs / "secret.env").write_text(f"TOKEN={SECRET}\n", encoding="utf-8")
    done = build(["sphinx-build", "-E", "-q", "-b", "html", "docs", "html"], root)
    assert done.returncode == 0, done.stderr
    return root


def test_the_myst_substitutions_are_on(sphinx_site: Path) -> None:
    body = parse(sphinx_site / "html" / "control.html").body
    assert MYST_CONTROL in body
    assert "CONTROL-JOINED" in body


def test_nothing_runs_or_leaks_through_myst(sphinx_site: Path) -> None:
    _assert_nothing_ran(sphinx_site, sphinx_site / "html")


@pytest.mark.parametrize("page", ["runbook", "rendered"])
def test_hostile_text_is_shown_as_written_on_a_sphinx_page(sphinx_site: Path, page: str) -> None:
    body = parse(sphinx_site / "html" / f"{page}.html").body
    _assert_shown_as_written(body)
    assert HOSTILE_JOB in body
