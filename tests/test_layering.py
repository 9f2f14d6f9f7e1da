"""The one-way flow, enforced: every import in the package is read (not run) and checked against
the order of the layers, and against the directions a stage may never take.

The layers, lowest first (a module imports only from a lower layer or its own room):
core/ < programs < git < audit/ < project/ < ledger/, overlay/ < findings < extract/,
baseline/, draft/ < gate/, stub/ < verdict/ < session < presenters (reporters/, github/, docs/,
cli/, plugin; among them reporters/ < docs/, plugin < github/ < cli/).

source -> extract/ -> ledger/ -> gate/ (with overlay/) -> findings -> presenters (plugin,
reporters/, github/, cli/), whose inputs ``session`` reads once; stub/ sits beside the chain and
only writes overlay text, and draft/ beside it runs a person's draft command, reached only from
cli/; verdict/ reads the gate's joined rows and decides; audit/ is the trail and leans on
nothing but the core.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "pytest_jobledger"
NAME = "pytest_jobledger"

#: room -> the rooms (or outside packages) it must never import.
FORBIDDEN: dict[str, frozenset[str]] = {
    "extract": frozenset(
        {"overlay", "gate", "stub", "github", "reporters", "cli", "plugin", "findings", "pytest"}
    ),
    "ledger": frozenset(
        {"extract", "overlay", "gate", "stub", "github", "reporters", "cli", "plugin", "pytest"}
    ),
    "overlay": frozenset(
        {"extract", "ledger", "gate", "stub", "github", "reporters", "cli", "plugin", "pytest"}
    ),
    "gate": frozenset({"stub", "cli", "github", "reporters", "plugin", "pytest"}),
    "reporters": frozenset({"extract", "overlay", "stub", "gate", "cli", "plugin", "pytest"}),
    "github": frozenset({"extract", "overlay", "stub", "gate", "cli"}),
    "stub": frozenset({"gate", "github", "reporters", "cli", "plugin", "pytest"}),
    "findings": frozenset({"extract", "gate", "stub", "github", "reporters", "cli", "plugin"}),
    "project": frozenset({"extract", "gate", "stub", "github", "reporters", "cli"}),
    "verdict": frozenset({"cli", "github", "reporters", "stub", "plugin", "pytest"}),
    # The trail knows nothing of verdicts: it can be checked without the rest of the tool.
    "audit": frozenset({"*"}),
    "core": frozenset({"*"}),
    "git": frozenset({"*"}),
    "programs": frozenset({"*"}),
}
# The draft lane runs a person's command: it reads the ledger's records and nothing that judges
# or presents; nothing that judges or presents (the gate, the plugin, the Action, reporters) may
# reach it. Only `jobledger draft` and `jobledger render --preview` (cli/) do.
FORBIDDEN["draft"] = frozenset(
    {"extract", "overlay", "gate", "stub", "github", "reporters", "cli", "plugin", "pytest"}
)
# The baseline turns the gate's findings into notices: it reads findings and the configuration,
# and nothing that extracts, joins or presents.
FORBIDDEN["baseline"] = frozenset(
    {"extract", "ledger", "overlay", "gate", "stub", "github", "reporters", "cli", "plugin"}
    | {"draft", "pytest", "verdict", "audit"}
)
# The session reads once, above the gate and below the commands and presenters: nothing it
# serves may be reached from it, and nothing below it may reach up to it.
FORBIDDEN["session"] = frozenset({"cli", "github", "plugin", "stub", "pytest"})
FORBIDDEN["plugin"] = frozenset({"draft"})
# The read-only commands' memos stand in for readings the session makes: they know the tree,
# the overlay and the redaction step, never what joins, judges or presents them.
FORBIDDEN["memo"] = frozenset(
    {"gate", "stub", "github", "reporters", "cli", "plugin", "pytest", "session", "draft"}
    | {"verdict", "baseline", "findings", "docs"}
)
# The docs builders are presenters: they never parse source or read the overlay themselves, and
# reach the session through docs/model.py alone (test_the_docs_reach_the_gate_through_one_module).
FORBIDDEN["docs"] = frozenset(
    {"extract", "ledger", "overlay", "stub", "github", "cli", "plugin", "pytest", "draft"}
    | {"verdict", "audit", "baseline"}
)
for _room in ("extract", "ledger", "overlay", "gate", "reporters", "github", "stub", "findings"):
    FORBIDDEN[_room] = FORBIDDEN[_room] | {"draft"}
for _room in ("extract", "ledger", "overlay", "gate", "reporters", "stub", "findings", "project"):
    FORBIDDEN[_room] = FORBIDDEN[_room] | {"session"}
for _room in ("verdict", "baseline", "draft"):
    FORBIDDEN[_room] = FORBIDDEN[_room] | {"session"}
FORBIDDEN["project"] = FORBIDDEN["project"] | {"draft"}

#: What the innermost modules may import of the package at all (``"*"`` above).
LEAVES = frozenset({"core", "git", "programs"})

#: Each room's layer, lowest first; a module imports only from a lower layer or its own room.
LAYERS: dict[str, int] = {
    # The leaves, and the one program runner built on them.
    "core": 0,
    "programs": 1,
    "git": 2,
    "audit": 3,
    "project": 4,
    **dict.fromkeys(("ledger", "overlay"), 5),
    "findings": 6,
    **dict.fromkeys(("extract", "baseline", "draft"), 7),
    **dict.fromkeys(("gate", "stub", "memo"), 8),
    "verdict": 9,
    "session": 10,
    # The presenters, themselves in order: the formats, then what draws them.
    "reporters": 11,
    **dict.fromkeys(("docs", "plugin"), 12),
    "github": 13,
    # The command line on top: `jobledger gate` runs the Action's own command (github.action).
    "cli": 14,
    "__main__": 15,
}
#: Modules of a higher layer that a lower one may read, each with its reason.
UPWARD: dict[tuple[str, str], str] = {
    # The vocabulary of ledger fields and of cells imports nothing of the package
    # (test_the_vocabulary_is_a_leaf): the key table checks a configured cell against it.
    ("project", f"{NAME}.ledger.model"): "the ledger's field names and frameworks",
    ("project", f"{NAME}.overlay.cells"): "the cells a person may sign",
    # The runbook-fresh item compares the committed page with a fresh render of it.
    ("session", f"{NAME}.reporters.runbook"): "the page the runbook-fresh item compares",
}


def room_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def module_name(path: Path, package: Path = PACKAGE) -> str:
    relative = path.relative_to(package.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path, package_dir: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports (absolute names), with the line, TYPE_CHECKING ones too."""
    module = module_name(path, package_dir)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            # ``from . import check`` imports the submodule ``check``.
            found.extend((node.lineno, f"{target}.{alias.name}") for alias in node.names)
    return found


def violations(path: Path, package: Path = PACKAGE) -> list[str]:
    room = room_of(module_name(path, package))
    forbidden = FORBIDDEN.get(room, frozenset())
    where = path.relative_to(package.parent)
    problems = []
    for line, target in imported_modules(path, package):
        head = target.split(".")[0]
        if head in ("pytest", "_pytest") and "pytest" in forbidden:
            problems.append(f"{where}:{line}: {room} imports {target}")
            continue
        if head != NAME or target == NAME:
            continue
        other = room_of(target)
        if other == room or other == "__version__":
            continue
        if "*" in forbidden and other not in LEAVES:
            problems.append(
                f"{where}:{line}: {room} may import only {', '.join(sorted(LEAVES))}, not {target}"
            )
        elif other in forbidden:
            problems.append(f"{where}:{line}: {room} imports {target}")
    return problems


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=[module_name(p) for p in MODULES])
def test_no_forbidden_import(path: Path) -> None:
    assert violations(path) == []


def layer_violations(path: Path, package: Path = PACKAGE) -> list[str]:
    room = room_of(module_name(path, package))
    where = path.relative_to(package.parent)
    problems = []
    for line, target in imported_modules(path, package):
        if not target.startswith(f"{NAME}.") or room not in LAYERS:
            continue
        other = room_of(target)
        if other in (room, "__version__") or LAYERS.get(other, -1) < LAYERS[room]:
            continue
        if any(target.startswith(allowed) for (lower, allowed) in UPWARD if lower == room):
            continue
        problems.append(
            f"{where}:{line}: {room} (layer {LAYERS[room]}) imports {target} "
            f"(layer {LAYERS.get(other)})"
        )
    return problems


@pytest.mark.parametrize("path", MODULES, ids=[module_name(p) for p in MODULES])
def test_every_import_points_down_the_layers(path: Path) -> None:
    assert layer_violations(path) == []


def test_every_room_has_a_layer() -> None:
    rooms = {room_of(module_name(path)) for path in MODULES} - {NAME}
    assert rooms - set(LAYERS) == set()


def test_the_vocabulary_is_a_leaf() -> None:
    """What the project layer may read of a higher one imports nothing of the package."""
    for (_, module), _reason in UPWARD.items():
        if module.endswith("reporters.runbook"):
            continue
        path = PACKAGE.parent / (module.replace(".", "/") + ".py")
        assert [t for _, t in imported_modules(path, PACKAGE) if t.startswith(NAME)] == []


def test_the_layer_checker_sees_an_upward_import(tmp_path: Path) -> None:
    fake = tmp_path / NAME
    (fake / "gate").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "gate" / "__init__.py").write_text("")
    bad = fake / "gate" / "join.py"
    bad.write_text("from ..session import Session\n")
    assert layer_violations(bad, fake) == [
        f"{NAME}/gate/join.py:1: gate (layer 8) imports {NAME}.session (layer 10)",
        f"{NAME}/gate/join.py:1: gate (layer 8) imports {NAME}.session.Session (layer 10)",
    ]


def test_the_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    """The test above can fail: an extraction module that reads the overlay is caught."""
    fake = tmp_path / NAME
    (fake / "extract").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "extract" / "__init__.py").write_text("")
    bad = fake / "extract" / "engine.py"
    bad.write_text("from ..overlay.reader import load_overlay\nimport pytest\n")
    assert violations(bad, fake) == [
        f"{NAME}/extract/engine.py:1: extract imports {NAME}.overlay.reader",
        f"{NAME}/extract/engine.py:1: extract imports {NAME}.overlay.reader.load_overlay",
        f"{NAME}/extract/engine.py:2: extract imports pytest",
    ]


def test_every_room_is_a_known_room() -> None:
    """A new top-level module or folder gets a line in FORBIDDEN (or is a presenter on purpose)."""
    presenters = {"plugin", "cli", "__main__", NAME}
    rooms = {room_of(module_name(path)) for path in MODULES}
    assert rooms - set(FORBIDDEN) - presenters == set()


def test_the_trail_may_lean_on_the_core_only(tmp_path: Path) -> None:
    """audit/ importing what a verdict means (or the gate) is caught; the core is fine."""
    fake = tmp_path / NAME
    (fake / "audit").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "audit" / "__init__.py").write_text("")
    bad = fake / "audit" / "log.py"
    bad.write_text("from ..core.atomic import locked\nfrom ..verdict.model import Answer\n")
    assert violations(bad, fake) == [
        f"{NAME}/audit/log.py:2: audit may import only core, git, programs, "
        f"not {NAME}.verdict.model",
        f"{NAME}/audit/log.py:2: audit may import only core, git, programs, "
        f"not {NAME}.verdict.model.Answer",
    ]


def test_the_docs_reach_the_gate_through_one_module() -> None:
    """Only docs/model.py opens the session (the one reading every command gets): the MkDocs
    plugin and the Sphinx extension draw the model it returns."""
    reaching = {
        module_name(path)
        for path in (PACKAGE / "docs").glob("*.py")
        for _, target in imported_modules(path, PACKAGE)
        if room_of(target) in {"gate", "session"} and target.startswith(NAME)
    }
    assert reaching == {f"{NAME}.docs.model"}
