"""A built page opened in headless Chromium (the OS package, ``/usr/bin/chromium``) at 1280 px:
the width of every table of the page's content column, measured by the browser's own layout.

The page is copied beside itself with a small script that runs after the theme's own scripts
(``load``) and writes what it measured into the DOM; ``--dump-dom`` prints that DOM. Set
``JOBLEDGER_SCREENSHOTS`` to a folder to keep a screenshot of each page opened, to look at.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
WIDTH = 1280
#: Written into the page: the content column (``role="main"`` in both default themes) and the
#: box of every table in it, after the page and its theme have loaded.
MEASURE = """<script>
window.addEventListener("load", function () {
  var main = document.querySelector('[role="main"]');
  var box = main.getBoundingClientRect();
  var style = getComputedStyle(main);
  var right = box.right - parseFloat(style.paddingRight);
  var tables = [];
  main.querySelectorAll("table").forEach(function (table) {
    var r = table.getBoundingClientRect();
    tables.push({right: r.right, width: r.width, scroll: table.scrollWidth,
                 first: (table.querySelector("td") || table).textContent.trim().slice(0, 60)});
  });
  var out = document.createElement("pre");
  out.id = "jobledger-measured";
  out.textContent = JSON.stringify({right: right, width: main.clientWidth, tables: tables});
  document.body.appendChild(out);
});
</script>"""
_MEASURED = re.compile(r'<pre id="jobledger-measured">(.*?)</pre>', re.S)


@dataclass(frozen=True)
class TableBox:
    right: float
    width: float
    scroll: float
    first: str


@dataclass(frozen=True)
class Measured:
    """The content column's right edge and width, and each table's box, in CSS pixels."""

    right: float
    width: float
    tables: tuple[TableBox, ...]

    def too_wide(self) -> list[TableBox]:
        """Tables that reach past the content column or scroll inside themselves."""
        return [
            table
            for table in self.tables
            if table.right > self.right + 1 or table.scroll > table.width + 1
        ]


def chromium() -> str:
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"{CHROMIUM} is missing (Debian: apt-get install chromium; .ci/run does)")
    return CHROMIUM


def _run(page: Path, *flags: str, height: int = 1024) -> str:
    done = subprocess.run(
        [
            chromium(),
            "--headless",
            "--no-sandbox",  # the suite may run as root in a container
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            f"--user-data-dir={page.parent / '.chromium-profile'}",
            "--virtual-time-budget=5000",
            f"--window-size={WIDTH},{height}",
            *flags,
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def measure(page: Path) -> Measured:
    """Open ``page`` (a built HTML file) at 1280 px and measure its tables."""
    probe = page.with_name(f"measured-{page.name}")
    source = page.read_text("utf-8")
    probe.write_text(source.replace("</body>", MEASURE + "</body>", 1), encoding="utf-8")
    found = _MEASURED.search(_run(probe, "--dump-dom"))
    assert found, f"the measuring script did not run on {page}"
    data = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    keep = os.environ.get("JOBLEDGER_SCREENSHOTS")
    if keep:
        shot = page.with_name(f"shot-{page.stem}.png")
        _run(page, f"--screenshot={shot}", height=3000)
        name = f"{page.parent.parent.name}-{page.parent.name}-{page.stem}.png"
        shutil.copyfile(shot, Path(keep) / name)
    return Measured(
        right=data["right"],
        width=data["width"],
        tables=tuple(TableBox(**table) for table in data["tables"]),
    )
