"""``extensions = ["pytest_jobledger.docs.sphinx"]``: the ``jobledger-runbook`` directive.

    .. jobledger-runbook::
       :root: ..            (the project with [tool.jobledger], relative to the source folder)
       :group-by: queue     (queue, module, owner or framework; default: the configuration's)
       :preview:            (build while cells are unsigned, each marked)

The page is built from docutils nodes (sections whose ids are the jobs' anchors, tables, literal
text): repository text only ever lands in text nodes, so the writer escapes it, and no raw HTML
is made. Anything that keeps ``jobledger render`` from publishing is an error located at the
directive, naming each finding as ``jobledger check`` prints it, so ``sphinx-build -W`` fails.

An incremental build sees what a fresh one sees: the directive records what the page was made
from (every Python file under the configured ``paths``, the configuration file, the roster, the
ledger and the overlay: their names, sizes and times), and a page whose inputs differ (a job
added in an existing file or a new one, a changed roster) is read again (``env-get-outdated``).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective

from .. import __version__
from ..core.errors import JobledgerError
from ..core.text import clip, inert, one_line
from ..project import RUNBOOK_GROUPS, Config
from ..reporters.markdown import MAX_BLOCK_CHARS, MAX_CELL_CHARS
from ..reporters.runbook.model import (
    OPTIONAL,
    PURPOSE,
    SIGNED,
    JobPage,
    LedgerValue,
    PolicyCell,
    Runbook,
)
from ..reporters.runbook.page import GROUP_TITLES, LABELS, SECONDS
from .model import runbook_for

INDEX_HEADER = (
    "job",
    "queue",
    "retries",
    "soft / hard time limit",
    "idempotent",
    "paging owner",
    "runtime class",
)
MARKERS = {
    "unsigned": "[UNSIGNED]",
    "invalid": "[INVALID]",
    "not-judged": "[NOT JUDGED]",
    OPTIONAL: "not signed (optional)",
}


def _group_by(argument: str | None) -> str:
    return directives.choice(argument or "", RUNBOOK_GROUPS)


class JobledgerRunbook(SphinxDirective):
    """The runbook of one project, or a build error naming what blocks it."""

    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {
        "root": directives.unchanged_required,
        "group-by": _group_by,
        "preview": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        root = Path(self.env.srcdir) / self.options.get("root", ".")
        preview = "preview" in self.options
        try:
            docs = runbook_for(root, preview=preview, group_by=self.options.get("group-by"))
        except JobledgerError as error:
            raise self.error(inert(f"jobledger: {error}")) from None
        for path in (docs.config.ledger_path, docs.config.overlay_path):
            if path.is_file():
                self.env.note_dependency(str(path))
        _record_inputs(self.env, *_inputs(docs.config))
        if docs.book is None:
            count = len(docs.blocking)
            raise self.error(
                "\n".join(
                    [
                        f"jobledger: the runbook is not published: {count} "
                        f"{'checks fail' if count != 1 else 'check fails'}; sign them in the "
                        "overlay, or add :preview: to build with each one marked",
                        *docs.blocking,
                    ]
                )
            )
        return _page(docs.book, docs.blocking)


def _text(value: str, limit: int = MAX_CELL_CHARS) -> str:
    """One line of repository text, bounded, control characters shown as escapes."""
    return one_line(clip(value, limit))


def _literal(value: str) -> nodes.literal:
    return nodes.literal(text=_text(value))


def _para(*parts: nodes.Node | str) -> nodes.paragraph:
    node = nodes.paragraph()
    for part in parts:
        node += nodes.Text(part) if isinstance(part, str) else part
    return node


def _section(ids: str, *title: nodes.Node | str) -> nodes.section:
    section = nodes.section(ids=[ids])
    heading = nodes.title()
    for part in title:
        heading += nodes.Text(part) if isinstance(part, str) else part
    section += heading
    return section


def _table(header: Sequence[str], rows: Sequence[Sequence[nodes.Node | str]]) -> nodes.table:
    table = nodes.table()
    group = nodes.tgroup(cols=len(header))
    table += group
    for _ in header:
        group += nodes.colspec(colwidth=1)

    def row(cells: Sequence[nodes.Node | str]) -> nodes.row:
        made = nodes.row()
        for cell in cells:
            entry = nodes.entry()
            entry += cell if isinstance(cell, nodes.paragraph) else _para(cell)
            made += entry
        return made

    head = nodes.thead()
    head += row(header)
    body = nodes.tbody()
    for cells in rows:
        body += row(cells)
    group += head
    group += body
    return table


def _page(book: Runbook, blocking: Sequence[str]) -> list[nodes.Node]:
    made: list[nodes.Node] = []
    if book.preview:
        warning = nodes.warning()
        warning += _para(
            f"Preview: {book.unsigned_cells} policy cell(s) unsigned; not for publication. "
            "A cell without a signed answer is marked [UNSIGNED], [INVALID] or [NOT JUDGED]."
        )
        if blocking:
            listing = nodes.bullet_list()
            for line in blocking:
                item = nodes.list_item()
                item += _para(_text(line))
                listing += item
            warning += listing
        made.append(warning)
    made.append(
        _para(
            "Rendered by jobledger from the ledger ",
            _literal(book.ledger.path),
            f" (sha256 {book.ledger.sha256 or 'no file'}) and the overlay ",
            _literal(book.overlay.path),
            f" (sha256 {book.overlay.sha256 or 'no file'}): numbers come from the code, policy "
            "from cells a person signed.",
        )
    )
    made.append(_index(book))
    jobs = _section("jobledger-jobs", "Jobs")
    for job in book.jobs:
        jobs += _job(job, book.preview)
    made.append(jobs)
    for node in made:
        if isinstance(node, nodes.Element):
            # A signed value is shown as written: no curly quotes or dashes from Sphinx's
            # typography.
            node["support_smartquotes"] = False
    return made


def _index(book: Runbook) -> nodes.section:
    title, missing = GROUP_TITLES[book.group_by]
    index = _section("jobledger-index", f"Jobs by {title.lower()}")
    if not book.jobs:
        index += _para("No jobs are registered.")
        return index
    groups: dict[str | None, list[JobPage]] = {}
    for job in book.jobs:
        groups.setdefault(job.group, []).append(job)
    for number, group in enumerate(sorted(groups, key=lambda name: (name is None, name or ""))):
        heading: list[nodes.Node | str] = (
            [f"{title} ", _literal(group)] if group is not None else [missing]
        )
        section = _section(f"jobledger-group-{number + 1}", *heading)
        section += _table(
            INDEX_HEADER,
            [_index_row(job) for job in groups[group]],
        )
        index += section
    return index


def _index_row(job: JobPage) -> list[nodes.Node | str]:
    values = {value.field: value for value in job.ledger}
    link = nodes.reference("", "", _literal(job.id), refid=job.anchor, internal=True)
    return [
        _para(link),
        _value(values["queue"]),
        _value(values["max_retries"]),
        f"{_value(values['soft_time_limit_s'])} / {_value(values['time_limit_s'])}",
        *(_cell(job.cell(name)) for name in ("idempotent", "paging_owner", "runtime_class")),
    ]


def _job(job: JobPage, preview: bool) -> nodes.section:
    section = _section(job.anchor, _literal(job.id))
    section += _para(
        "Defined at ",
        _literal(job.location),
        " by ",
        _literal(job.decorator),
        f" ({_text(job.framework)}); function ",
        _literal(job.function),
        " in module ",
        _literal(job.module),
        ".",
    )
    rows: list[list[nodes.Node | str]] = []
    for value in job.ledger:
        rows.append([LABELS[value.field], _value(value), _ledger_lane(value, job)])
    for value in job.options:
        rows.append(
            [_para("option ", _literal(value.field)), _value(value), _ledger_lane(value, job)]
        )
    for cell in job.policy:
        if cell.cell != PURPOSE:
            label = LABELS.get(cell.cell)
            rows.append([label or _para(_literal(cell.cell)), _cell(cell), _cell_lane(cell)])
    section += _table(("", "value", "lane"), rows)
    purpose = job.cell(PURPOSE)
    if purpose is not None and purpose.state == SIGNED and purpose.value is not None:
        section += _para("Accepted purpose (signed at ", _literal(purpose.location), "):")
        quote = nodes.block_quote()
        lines = nodes.line_block()
        for line in clip(purpose.value, MAX_BLOCK_CHARS).splitlines():
            lines += nodes.line(text=_text(line))
        quote += lines
        section += quote
    elif purpose is not None:
        section += _para(
            f"Accepted purpose: {MARKERS.get(purpose.state, purpose.state)} (",
            _literal(purpose.location),
            ").",
        )
    else:
        section += _para(f"Accepted purpose: {MARKERS[OPTIONAL]}.")
    if preview:
        findings = [cell.finding for cell in job.policy if cell.finding is not None]
        findings += job.findings
        if findings:
            section += _para("Findings for this job (they block publication):")
            listing = nodes.bullet_list()
            for finding in findings:
                item = nodes.list_item()
                item += _para(
                    _literal(finding.location),
                    " ",
                    _literal(f"{finding.job}::{finding.cell}"),
                    f" [{finding.kind.value}] {_text(finding.message)}",
                )
                listing += item
            section += listing
    if job.docstring is not None and job.docstring.strip():
        section += _para(
            "From the source (the docstring at ",
            _literal(job.location),
            ", shown as written; it is not a signed promise):",
        )
        body = "\n".join(
            one_line(line) for line in clip(job.docstring, MAX_BLOCK_CHARS).splitlines()
        )
        section += nodes.literal_block(body, body)
    else:
        section += _para(
            "From the source: the job has no docstring (", _literal(job.location), ")."
        )
    return section


def _number(field: str, value: object) -> str:
    if value is None:
        return "no limit"
    text = str(value) if isinstance(value, int) else json.dumps(value)
    return f"{text} s" if field in SECONDS else text


def _value(value: LedgerValue) -> str:
    if value.value is not None:
        if isinstance(value.value, str):
            return _text(value.value)
        if isinstance(value.value, (int, float)) and not isinstance(value.value, bool):
            return _number(value.field, value.value)
        return _text(json.dumps(value.value, sort_keys=True, ensure_ascii=False))
    if value.default is not None:
        return f"{_number(value.field, value.default.value)} ({value.default.label} default)"
    return f"not stated: {_text(value.reason or 'the source does not prove it')}"


def _ledger_lane(value: LedgerValue, job: JobPage) -> nodes.paragraph:
    if value.lane == "default" and value.default is not None:
        return _para(
            "default: ",
            nodes.reference("", f"{value.default.label} documentation", refuri=value.default.url),
        )
    if value.where is not None:
        return _para(f"{value.lane}: {_text(value.where)}")
    return _para("code ", _literal(job.location))


def _cell(cell: PolicyCell | None) -> str:
    if cell is None:
        return MARKERS[OPTIONAL]
    if cell.state == SIGNED and cell.value is not None:
        return _text(cell.value)
    if cell.finding is not None and cell.state == "invalid":
        return f"{MARKERS['invalid']} {cell.finding.kind.value}"
    return MARKERS.get(cell.state, cell.state)


def _cell_lane(cell: PolicyCell) -> nodes.paragraph:
    if cell.state == SIGNED:
        return _para("signed ", _literal(cell.location))
    if cell.state == OPTIONAL:
        return _para("nobody signed it")
    return _para("fix at ", _literal(cell.location))


# -- what a page was made from, so an incremental build sees what a fresh one sees ----------------

#: The attribute of the build environment that holds each page's inputs (pickled with it).
_ENV_KEY = "jobledger_runbook_inputs"


def _inputs(config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The folders scanned for sources and the single files a page depends on."""
    folders = tuple(str(config.root / entry) for entry in config.extraction.paths)
    singles = [config.ledger_path, config.overlay_path]
    singles += [path for path in (config.source, config.owners_path) if path is not None]
    return folders, tuple(str(path) for path in singles)


def _sources(folders: Iterable[str]) -> Iterator[str]:
    """Every Python file under ``folders`` (a superset of what extraction reads: excludes are
    not applied), skipping hidden folders and ``__pycache__``."""
    for folder in folders:
        if os.path.isfile(folder):
            yield folder
            continue
        for top, names, files in os.walk(folder):
            names[:] = sorted(n for n in names if not n.startswith(".") and n != "__pycache__")
            yield from (os.path.join(top, name) for name in sorted(files) if name.endswith(".py"))


def _fingerprint(folders: Iterable[str], files: Iterable[str]) -> str:
    digest = hashlib.sha256()
    for path in [*_sources(folders), *files]:
        try:
            info = os.stat(path)
            digest.update(f"{path}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
        except OSError:
            digest.update(f"{path}\0missing\n".encode())
    return digest.hexdigest()


def _record_inputs(env: BuildEnvironment, folders: tuple[str, ...], files: tuple[str, ...]) -> None:
    """Note what the page being read was made from, with the fingerprint of it now."""
    recorded: dict[str, list[tuple[tuple[str, ...], tuple[str, ...], str]]] = getattr(
        env, _ENV_KEY, {}
    )
    recorded.setdefault(env.docname, []).append((folders, files, _fingerprint(folders, files)))
    setattr(env, _ENV_KEY, recorded)


def _outdated(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Pages whose runbook inputs changed since they were read."""
    recorded: dict[str, list[tuple[tuple[str, ...], tuple[str, ...], str]]] = getattr(
        env, _ENV_KEY, {}
    )
    return [
        docname
        for docname, states in recorded.items()
        if docname not in removed
        and any(_fingerprint(folders, files) != seen for folders, files, seen in states)
    ]


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    getattr(env, _ENV_KEY, {}).pop(docname, None)


def _merge(
    app: Sphinx, env: BuildEnvironment, docnames: Iterable[str], other: BuildEnvironment
) -> None:
    mine = getattr(env, _ENV_KEY, {})
    theirs = getattr(other, _ENV_KEY, {})
    for docname in docnames:
        if docname in theirs:
            mine[docname] = theirs[docname]
    setattr(env, _ENV_KEY, mine)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("jobledger-runbook", JobledgerRunbook)
    app.connect("env-get-outdated", _outdated)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
