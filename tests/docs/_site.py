"""What the docs tests share: a copy of a bundled example (its git-tracked files only), the
hostile and unsigned edits made to it, the real builders run as subprocesses, and the built HTML
read with the standard library's parser."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from pytest_jobledger.reporters.runbook.build import anchor_for
from pytest_jobledger.reporters.runbook.page import LABELS, SECONDS

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
EXAMPLE = "examples/celery"
OVERLAY = "overlays/job_policy.yaml"
#: The job whose cells the tests sign with hostile text, and the one they leave unsigned.
HOSTILE_JOB = "acme_shop.billing.tasks.capture_invoice"
#: Each must reach the page as text: no element, no link, no heading, no extra table cell.
SCRIPT = "<script>alert('xss')</script>"
IMG = "<img src=x onerror=alert(1)>"
JS_LINK = "[click](javascript:alert(1))"
PIPE = "left | right"
HEADING = "# Owned heading"
RST_HEADING = "Owned section"
DRAFT = "DRAFT-PURPOSE-SHOULD-NEVER-SHOW"
MARKER = "IMPORTED.marker"


def ledger_jobs(root: Path) -> list[dict[str, Any]]:
    jobs: list[dict[str, Any]] = json.loads((root / "generated" / "job_ledger.json").read_text())[
        "jobs"
    ]
    return jobs


def check_jobs(page: Page, root: Path) -> None:
    """Every job of the ledger has its anchor, and its section shows the ledger's numbers."""
    jobs = ledger_jobs(root)
    assert jobs
    for job in jobs:
        anchor = anchor_for(job["id"])
        assert anchor in page.ids, job["id"]
        rows = {cells[0]: cells[1:] for where, cells in page.rows if where == anchor and cells}
        for name in ("max_retries", "retry_delay_s", "soft_time_limit_s", "time_limit_s"):
            if isinstance(job[name], int):
                unit = " s" if name in SECONDS else ""
                assert rows[LABELS[name]][0] == f"{job[name]}{unit}", (job["id"], name)
        if isinstance(job["queue"], str):
            assert rows[LABELS["queue"]][0] == job["queue"], job["id"]


def copy_example(dest: Path, example: str = EXAMPLE) -> Path:
    """The example's committed files (``git ls-files``) under ``dest``; nothing it generated."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--", example],
        cwd=REPO,
        check=True,
        capture_output=True,
    ).stdout.decode("utf-8")
    for name in filter(None, listed.split("\0")):
        target = dest / Path(name).relative_to(example)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / name, target)
    return dest


def sign_hostile(root: Path) -> None:
    """Sign one job's free-text cells with markup of every kind, and leave a draft beside them."""
    overlay = root / OVERLAY
    text = overlay.read_text("utf-8")
    text = text.replace(
        "    poison_policy: park payload; page billing-oncall after 3 parks\n",
        f'    poison_policy: "{SCRIPT} {IMG} {JS_LINK} {PIPE}"\n',
    )
    text = text.replace(
        "      Charges a captured authorization and writes a ledger row.\n",
        f"      {HEADING}\n      {RST_HEADING}\n      =============\n      {SCRIPT}\n"
        f"      .. raw:: html\n      {JS_LINK} | {PIPE}\n",
    )
    assert SCRIPT in text
    overlay.write_text(text, encoding="utf-8")
    (root / "overlays" / "purpose_drafts.yaml").write_text(
        f"{HOSTILE_JOB}:\n  status: unverified-draft\n  program: drafter\n"
        f"  docstring_sha256: '{'0' * 64}'\n  text: {DRAFT}\n",
        encoding="utf-8",
    )


def unsign(root: Path) -> int:
    """Remove one job's paging owner; the overlay line the gate then points at (the entry's)."""
    overlay = root / OVERLAY
    lines = overlay.read_text("utf-8").splitlines(keepends=True)
    entry = lines.index(f"  {HOSTILE_JOB}:\n")
    owner = next(n for n in range(entry, len(lines)) if "paging_owner:" in lines[n])
    del lines[owner]
    (root / OVERLAY).write_text("".join(lines), encoding="utf-8")
    (root / "overlays" / "purpose_drafts.yaml").write_text(
        f"{HOSTILE_JOB}:\n  status: unverified-draft\n  program: drafter\n"
        f"  docstring_sha256: '{'0' * 64}'\n  text: {DRAFT}\n",
        encoding="utf-8",
    )
    return entry + 1


def plant_import_markers(root: Path) -> Path:
    """Every module of the project writes a marker when imported: a build must leave none."""
    marker = root / MARKER
    for module in sorted((root / "src").rglob("*.py")):
        with module.open("a", encoding="utf-8") as handle:
            handle.write(f"\nopen({str(marker)!r}, 'a').write(__name__)\n")
    return marker


def build(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """One of the venv's own executables (``mkdocs``, ``sphinx-build``), run for real."""
    return subprocess.run(
        [str(BIN / command[0]), *command[1:]],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


@dataclass
class Page(HTMLParser):
    """The parts of a built page the tests look at."""

    ids: set[str] = field(default_factory=set)
    tags: list[str] = field(default_factory=list)
    hrefs: list[str] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    #: Every table row: the last job anchor (``anchors``) before it, and its cells' text.
    rows: list[tuple[str | None, list[str]]] = field(default_factory=list)
    anchors: frozenset[str] = frozenset()
    _heading: list[str] | None = None
    _cell: list[str] | None = None
    _job: str | None = None
    #: Only the page's own content counts (the theme's scripts and links are not the page's):
    #: the ``div`` with ``role="main"`` in both MkDocs' and Sphinx's default themes.
    _main: int = 0

    def __post_init__(self) -> None:
        HTMLParser.__init__(self, convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "div" and (self._main or ("role", "main") in attrs):
            self._main += 1
        if not self._main:
            return
        self.tags.append(tag)
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            if name in ("href", "src") and value is not None:
                self.hrefs.append(value)
            if name == "id" and value in self.anchors:
                self._job = value
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._heading = []
        if tag == "tr":
            self.rows.append((self._job, []))
        if tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "div" and self._main:
            self._main -= 1
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6") and self._heading is not None:
            # Sphinx ends each heading with its permalink's pilcrow.
            self.headings.append("".join(self._heading).strip().removesuffix("¶"))
            self._heading = None
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1][1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if not self._main:
            return
        self.text.append(data)
        if self._heading is not None:
            self._heading.append(data)
        if self._cell is not None:
            self._cell.append(data)

    @property
    def body(self) -> str:
        return "".join(self.text)


def parse(path: Path, anchors: frozenset[str] = frozenset()) -> Page:
    page = Page(anchors=anchors)
    page.feed(path.read_text("utf-8"))
    page.close()
    assert page.tags, f"{path} has no role=main content"
    return page
