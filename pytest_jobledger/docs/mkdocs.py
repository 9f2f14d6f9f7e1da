"""``plugins: [jobledger]`` in ``mkdocs.yml``: the runbook as a page of the site, or a failed build.

    plugins:
      - jobledger:
          root: .          # the project with [tool.jobledger], relative to mkdocs.yml
          page: jobs.md    # the page added to the site (in memory; nothing is written)
          preview: false   # true: build while cells are unsigned, each marked on the page

The page is the runbook's Markdown (:mod:`pytest_jobledger.reporters.runbook.page`, all repository
text inert), with every code and signed location linked to its line when ``repo_url`` is set.
The plugin converts it to HTML itself (Python-Markdown with tables and toc only) and hands MkDocs
that HTML: the site's Markdown source of the page is a fixed title with no repository text, so
the site's preprocessors and template plugins (pymdownx snippets, mkdocs-macros, includes) never
see a docstring or a signed cell, whatever their delimiters are configured to be.
Anything that keeps ``jobledger render`` from publishing fails the build with the located lines
``jobledger check`` prints.
"""

from __future__ import annotations

import logging
import os
import posixpath
import re
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING
from urllib.parse import quote, urljoin

import markdown
from mkdocs.config import config_options
from mkdocs.config.base import Config as MkDocsOptions
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from ..core.errors import JobledgerError
from ..core.text import inert
from ..reporters.runbook import page, view
from .model import runbook_for

log = logging.getLogger("mkdocs.plugins.jobledger")

if TYPE_CHECKING:
    from mkdocs.structure.toc import _TocToken

#: How many blocking lines the build error prints before it says how many more there are.
SHOWN = 20
#: The page's Markdown source as the site sees it: no repository text reaches the site's own
#: Markdown extensions and plugins; the content is replaced by the HTML this plugin built.
SOURCE = "# Job runbook\n"
#: The only extensions the page is converted with: what its own markup needs (tables, heading ids).
EXTENSIONS = ("tables", "toc")
_ID = re.compile(r'\sid="([^"]+)"')
#: A job's anchor before its heading, as the page writes it (portable Markdown has no heading
#: ids): the site gives the heading the anchor itself, so its table of contents links the job.
_ANCHORED = re.compile(r'<p><a id="(job-[a-z0-9-]+)"></a></p>\n<h2 id="([^"]+)">')


class JobledgerOptions(MkDocsOptions):  # type: ignore[no-untyped-call]
    root = config_options.Type(str, default=".")
    page = config_options.Type(str, default="jobs.md")
    preview = config_options.Type(bool, default=False)


class JobledgerPlugin(BasePlugin[JobledgerOptions]):  # type: ignore[no-untyped-call]
    """Adds the runbook page to the site's files; fails the build while the runbook is refused."""

    _name: str | None = None
    _built: _Built | None = None

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        name = _page_name(self.config.page)
        if files.get_file_from_path(name) is not None:
            raise PluginError(
                f"jobledger: {config.docs_dir}/{name} exists, and the plugin adds that page; "
                "delete the file or set the plugin's `page:` to another name"
            )
        base = Path(config.config_file_path or ".").resolve().parent
        root = base / self.config.root
        try:
            docs = runbook_for(root, preview=self.config.preview)
        except JobledgerError as error:
            raise PluginError(inert(f"jobledger: {error}")) from None
        if docs.book is None:
            raise PluginError(_refusal(docs.blocking))
        link = _linker(config, root)
        self._name = name
        warned = docs.blocking if docs.warned else None
        if warned:
            # info, not a warning: `mkdocs build --strict` would fail on a warning, and
            # docs_unsigned = "warn" asks to publish; the page's banner names every blocker
            log.info(inert(view.warned(len(warned))))
        self._built = _Built.convert(page.render(docs.book, link=link, warned=warned))
        files.append(File.generated(config, name, content=SOURCE))
        return files

    @event_priority(100)  # first: every other plugin sees the runbook's HTML, not the stand-in's
    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if self._built is None or page.file.src_uri != self._name:
            return html
        page.toc = get_toc(self._built.toc)
        page.present_anchor_ids = set(self._built.ids)
        return self._built.html


class _Built:
    """The runbook page as HTML, converted here, with its table of contents and its ids."""

    def __init__(self, html: str, toc: list[_TocToken], ids: frozenset[str]) -> None:
        self.html = html
        self.toc = toc
        self.ids = ids

    @classmethod
    def convert(cls, text: str) -> _Built:
        converter = markdown.Markdown(extensions=list(EXTENSIONS))
        html = converter.convert(text)
        toc: list[_TocToken] = list(getattr(converter, "toc_tokens", []))
        anchors = dict((heading, anchor) for anchor, heading in _ANCHORED.findall(html))
        html = _ANCHORED.sub(lambda found: f'<h2 id="{found[1]}">', html)
        _anchor_toc(toc, anchors)
        return cls(html, toc, frozenset(_ID.findall(html)))


def _anchor_toc(tokens: list[_TocToken], anchors: dict[str, str]) -> None:
    """Point each job's entry of the table of contents at the job's anchor."""
    for token in tokens:
        token["id"] = anchors.get(token["id"], token["id"])
        _anchor_toc(token["children"], anchors)


def _page_name(name: str) -> str:
    """The page's path inside docs_dir: relative, no ``..``, a Markdown file."""
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or path.suffix != ".md" or not path.name:
        raise PluginError(
            f"jobledger: page is {name!r}; give a Markdown file inside docs_dir, like jobs.md"
        )
    return str(path)


def _refusal(blocking: tuple[str, ...]) -> str:
    count = len(blocking)
    lines = [
        f"jobledger: the runbook is not published: {count} "
        f"{'checks fail' if count != 1 else 'check fails'}; unsigned work never ships in a page",
        *blocking[:SHOWN],
    ]
    if count > SHOWN:
        lines.append(f"... and {count - SHOWN} more (`jobledger check` lists every one)")
    lines.append(
        "jobledger: sign them in the overlay, or set `preview: true` (or docs_unsigned = "
        '"warn" in [tool.jobledger]) to build with each one marked'
    )
    return "\n".join(lines)


def _linker(config: MkDocsConfig, root: Path) -> page.Link | None:
    """``path:line`` -> its line in the repository browser, from ``repo_url`` + ``edit_uri``
    (which names docs_dir in the repository); ``None`` when the site names no repository."""
    repo_url: str | None = config.repo_url
    edit_uri: str | None = config.edit_uri
    if not repo_url or not edit_uri:
        return None
    # The edit view points at the docs folder; the same path under `blob` shows a file's lines.
    view = edit_uri.replace("/-/edit/", "/-/blob/")
    if view.startswith("edit/"):
        view = "blob/" + view[len("edit/") :]
    elif view.startswith("-/edit/"):
        view = "-/blob/" + view[len("-/edit/") :]
    docs_dir = Path(config.docs_dir).resolve()
    # A path is made relative to docs_dir and joined to the edit view: when edit_uri does not
    # name the docs folder, that `..` would climb over the branch and every link would be wrong.
    if view.rstrip("/").rsplit("/", 1)[-1] != docs_dir.name:
        where = Path(config.config_file_path or "mkdocs.yml").name
        raise PluginError(
            inert(
                f"jobledger: {where}: edit_uri is {edit_uri!r}, which does not end in the docs "
                f"folder {docs_dir.name!r}; the runbook links each source line from it, and the "
                f"branch would be lost. Write the docs folder's path in the repository, e.g. "
                f"edit_uri: edit/main/{docs_dir.name}/"
            )
        )
    base = urljoin(repo_url.rstrip("/") + "/", view.rstrip("/") + "/")

    def link(path: str, line: int) -> str | None:
        relative = os.path.relpath((root / path).resolve(), docs_dir).replace(os.sep, "/")
        url = urljoin(base, quote(posixpath.normpath(relative), safe="/"))
        return f"{url}#L{line}" if url.startswith(("https://", "http://")) else None

    return link
