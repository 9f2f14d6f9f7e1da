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
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from .. import __version__
from ..core.errors import JobledgerError
from ..core.text import clip, inert, one_line
from ..project import RUNBOOK_GROUPS, Config
from ..reporters.markdown import MAX_BLOCK_CHARS, MAX_CELL_CHARS
from ..reporters.runbook import view
from ..reporters.runbook.model import OPTIONAL, PURPOSE, SIGNED, JobPage, Runbook
from ..reporters.runbook.page import GROUP_TITLES
from .model import runbook_for

MARKERS = view.MARKER_WORDS
logger = logging.getLogger(__name__)


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
                        'overlay, or add :preview: (or docs_unsigned = "warn" in '
                        "[tool.jobledger]) to build with each one marked",
                        *docs.blocking,
                    ]
                )
            )
        return _page(docs.book, docs.blocking, warned=docs.warned)


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


def _spans(cell: Sequence[view.Span]) -> nodes.paragraph:
    """One cell's or line's words (:mod:`~pytest_jobledger.reporters.runbook.view`, the words the
    Markdown page has) as docutils nodes: repository text only in text nodes."""
    made = nodes.paragraph()
    for span in cell:
        node: nodes.Node
        if span.style == "code":
            node = _literal(span.text)
        elif span.style == "strong":
            node = nodes.strong(text=_text(span.text))
        elif span.style == "emphasis":
            node = nodes.emphasis(text=_text(span.text))
        else:
            node = nodes.Text(_text(span.text))
        if span.anchor is not None:
            node = nodes.reference("", "", node, refid=span.anchor, internal=True)
        elif span.url is not None:
            node = nodes.reference("", "", node, refuri=span.url)
        made += node
    return made


def _table(made: view.Table, *classes: str) -> nodes.table:
    # the browser sizes the columns by their content (Sphinx would give each the same share)
    table = nodes.table(classes=["colwidths-auto", "jobledger", *classes])
    group = nodes.tgroup(cols=len(made.header))
    table += group
    for _ in made.header:
        group += nodes.colspec(colwidth=1)

    def row(cells: Sequence[nodes.paragraph]) -> nodes.row:
        line = nodes.row()
        for cell in cells:
            entry = nodes.entry()
            entry += cell
            line += entry
        return line

    head = nodes.thead()
    head += row([_para(name) for name in made.header])
    body = nodes.tbody()
    for cells in made.rows:
        body += row([_spans(cell) for cell in cells])
    group += head
    group += body
    return table


def _page(book: Runbook, blocking: Sequence[str], *, warned: bool = False) -> list[nodes.Node]:
    made: list[nodes.Node] = []
    if warned:
        # a note in the build's log, not a warning (``sphinx-build -W`` would fail on one):
        # docs_unsigned = "warn" asks to publish, and the page's banner names every blocker
        logger.info(inert(view.warned(len(blocking))))
        banner = nodes.warning()
        banner += _para(view.warned(len(blocking)))
        listing = nodes.bullet_list()
        for line in blocking:
            item = nodes.list_item()
            item += _para(_text(line))
            listing += item
        banner += listing
        made.append(banner)
    elif book.preview:
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
    made.append(_spans(view.opening()))
    made.append(_index(book))
    unique = view.unique_functions(book.jobs)
    made.extend(_job(job, view.heading(job, unique), book.preview) for job in book.jobs)
    if book.defaults:
        defaults = _section("jobledger-defaults", view.DEFAULTS_TITLE)
        defaults += _spans(view.defaults_note())
        defaults += _table(view.defaults(book.defaults))
        made.append(defaults)
    footer = _section("jobledger-about", view.FOOTER_TITLE)
    ledger = (book.ledger.path, book.ledger.sha256)
    footer += _spans(view.sources(ledger, (book.overlay.path, book.overlay.sha256)))
    made.append(footer)
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
    unique = view.unique_functions(book.jobs)
    for number, group in enumerate(sorted(groups, key=lambda name: (name is None, name or ""))):
        heading: list[nodes.Node | str] = (
            [f"{title} ", _literal(group)] if group is not None else [missing]
        )
        section = _section(f"jobledger-group-{number + 1}", *heading)
        made = view.index_table(groups[group], queue=book.group_by != "queue", unique=unique)
        section += _table(made, "jobledger-index")
        index += section
    return index


def _job(job: JobPage, heading: str, preview: bool) -> nodes.section:
    section = _section(job.anchor, _literal(heading))
    section += _spans(view.intro(job))
    section += _table(view.job_table(job))
    note = view.footnote(job)
    if note is not None:
        section += _spans(note)
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
        block = nodes.literal_block(body, body)
        block["language"] = "text"  # shown as written: no colours from a guessed language
        section += block
    else:
        section += _para(
            "From the source: the job has no docstring (", _literal(job.location), ")."
        )
    return section


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


#: The runbook tables' stylesheet: long names may wrap, so a table fits a narrow content column.
STATIC = Path(__file__).resolve().parent / "static"


def _static(app: Sphinx) -> None:
    if app.builder.format == "html":
        app.config.html_static_path.append(str(STATIC))


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("jobledger-runbook", JobledgerRunbook)
    app.connect("builder-inited", _static)
    app.add_css_file("jobledger.css")
    app.connect("env-get-outdated", _outdated)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
