"""The content cache: what extraction learnt about each file, kept between runs.

It lives in ``<root>/.jobledger_cache/`` (``cache_dir`` in ``[tool.jobledger]``, or the folder
named by ``JOBLEDGER_CACHE_DIR``, the operator's choice, which may be outside the root), holds a
``.gitignore`` of ``*`` and a ``CACHEDIR.TAG``, and one snapshot per configuration: a JSON file
(never pickle: the file is data the cache validates, not code). For every file it keeps:

- how the file looked (size, modification and change times, inode): a file that still looks the
  same is not read again. A file changed less than a moment before it was read
  (:data:`RACY_NS`) is read again next time, as git does, since a second change within the same
  tick of the file system's clock would not show;
- its content digest and what the pre-filter found in it (:mod:`.prefilter`);
- for a candidate file, its rows, and what they were made from (:class:`~.deps.Trail`): every
  module name looked up (found or not), the digest of every file read, and the callee words whose
  places were skipped. An entry is used only while all of them are unchanged, so an edit anywhere
  a row depends on invalidates it.

The snapshot is keyed by the tool (its version and the digest of its own extraction code), the
root and every configuration key extraction reads. It is written whole and atomically
(:func:`~pytest_jobledger.core.atomic.atomic_write`), read through
:func:`~pytest_jobledger.core.paths.read_regular` with a size limit, and starts with the
HMAC-SHA256 of
the rest under this machine's key (:mod:`.cachekey`, kept outside the repository): a corrupt,
truncated, foreign or concurrently replaced file, and any snapshot a checkout carries (a pull
request can compute content digests, not the key), is ignored and rewritten, never trusted; an
entry that does not have the expected shape is dropped alone. Two processes writing at once each
write a whole, valid snapshot; the last rename wins. Without a key (its folder inside the root,
unwritable, or a key file that is not private) the cache is off, with one warning.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..core.atomic import atomic_write
from ..core.paths import read_regular
from ..ledger.model import Job, Pattern, Unsupported
from ..project import Config
from .cachekey import KeyUnavailable, load_key, sign, verify
from .celery_facts import CeleryFact
from .deps import Trail, digest
from .folder import ENV as ENV
from .folder import TAG as TAG
from .folder import cache_folder, is_cache_folder, prepare_folder
from .limits import MAX_FILE_BYTES_CEILING
from .prefilter import BindFact, TextFacts

#: 2: the head holds an HMAC under this machine's key, not a content digest.
FORMAT = 2
#: A snapshot larger than this is not read (a tree of 100,000 files makes about 30 MB).
MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024
#: A file whose times are this close to the moment it was read is read again next time. Linux
#: stamps files from a clock that ticks every few milliseconds; a file system that keeps whole
#: seconds (FAT keeps two) is detected by times without a fraction.
RACY_NS = 100_000_000
COARSE_RACY_NS = 2_000_000_000

#: (size, mtime_ns, ctime_ns, inode, device): how a file looked when it was read.
Stat = tuple[int, int, int, int, int]


def stat_of(info: os.stat_result) -> Stat:
    return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev)


def settled(info: os.stat_result, seen_ns: int) -> bool:
    """Whether a change to the file after ``seen_ns`` would surely change its times."""
    margin = RACY_NS
    if info.st_mtime_ns % 1_000_000_000 == 0 and info.st_ctime_ns % 1_000_000_000 == 0:
        margin = COARSE_RACY_NS
    return max(info.st_mtime_ns, info.st_ctime_ns) < seen_ns - margin


@dataclass
class FileRecord:
    """What is known about one file: its look, digest and pre-filter facts, or its read problem.
    ``binds`` is ``None`` until the file's bindings were needed (:func:`.prefilter.bind_facts`)."""

    stat: Stat | None
    digest: str
    facts: TextFacts
    binds: tuple[BindFact, ...] | None = None
    problem: Unsupported | None = None


@dataclass(frozen=True)
class ScanRecord:
    """One candidate file's rows and problems, and what they were made from."""

    digest: str
    found: tuple[Job | Unsupported | CeleryFact, ...]
    problems: tuple[Unsupported, ...]
    cited: tuple[Unsupported, ...]
    matched: tuple[str, ...]
    trail: Trail
    #: Proved to yield nothing without a parse (:mod:`.inert`), valid only while the file
    #: still reaches no job framework (:mod:`.reach`).
    inert: bool = False


@dataclass
class Snapshot:
    files: dict[str, FileRecord] = field(default_factory=dict)
    scans: dict[str, ScanRecord] = field(default_factory=dict)
    #: The aliases the stored facts were computed with (:mod:`.prefilter`).
    aliases: frozenset[str] = frozenset()
    #: What the tree said of each configured decorator no place matched: whether a module
    #: defines it, and the nearest name that is defined (a warm run warns without parsing).
    named: dict[str, tuple[bool, str | None]] = field(default_factory=dict)


def tool_fingerprint() -> str:
    """The version, and the digest of the code whose output the cache keeps."""
    package = Path(__file__).resolve().parent.parent
    parts = [__version__.encode()]
    for path in [*sorted((package / "extract").rglob("*.py")), package / "ledger" / "model.py"]:
        parts += [path.relative_to(package).as_posix().encode(), path.read_bytes()]
    return digest(b"\0".join(parts))


def config_key(config: Config) -> dict[str, Any]:
    """Every setting extraction reads, as data."""
    return {
        "root": str(config.root.resolve()),
        "paths": list(config.extraction.paths),
        "exclude": list(config.extraction.exclude),
        "respect_gitignore": config.extraction.respect_gitignore,
        "job_id": config.extraction.job_id,
        "max_file_bytes": min(config.extraction.max_file_bytes, MAX_FILE_BYTES_CEILING),
        "decorators": {
            name: {
                "framework": spec.framework,
                "fields": dict(sorted(spec.fields.items())),
                "time_unit": spec.time_unit,
            }
            for name, spec in sorted(config.extraction.decorators.items())
        },
    }


@dataclass
class Store:
    """Where one configuration's snapshot is read from and written to."""

    folder: Path
    path: Path
    header: dict[str, Any]
    #: This machine's key (:mod:`.cachekey`); ``None`` only when the cache is refused.
    key: bytes | None = None
    #: A note for the user when the cache is refused (the folder is not ours, or no key).
    refused: str | None = None
    #: What every read and write is bound to: the project root for a configured ``cache_dir``
    #: (a committed symlink on the way is refused), the folder itself when the operator named it.
    bound: Path | None = None

    @property
    def root(self) -> Path:
        return self.folder if self.bound is None else self.bound

    def load(self) -> Snapshot:
        """The stored snapshot, or an empty one when there is none that can be trusted."""
        if self.refused is not None or self.key is None:
            return Snapshot()
        try:
            raw = read_regular(self.path, root=self.root, limit=MAX_SNAPSHOT_BYTES)
        except OSError:
            return Snapshot()
        try:
            return _parse(raw, self.header, self.key)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            return Snapshot()

    def save(self, snapshot: Snapshot) -> None:
        """Replace the stored snapshot; a folder that cannot be written leaves the run as it is."""
        if self.refused is not None or self.key is None:
            return
        body = json.dumps(_dump(snapshot, self.header), sort_keys=True, separators=(",", ":"))
        head = json.dumps({"format": FORMAT, "mac": sign(self.key, body.encode())})
        try:
            prepare_folder(self.folder, self.bound)
            atomic_write(self.path, f"{head}\n{body}\n", root=self.root)
        except OSError:
            return


def open_store(config: Config) -> Store:
    """The store for ``config``: ``JOBLEDGER_CACHE_DIR`` when set, else the root's ``cache_dir``."""
    folder, bound = cache_folder(config)
    header = {"format": FORMAT, "tool": tool_fingerprint(), "config": config_key(config)}
    name = digest(json.dumps(header, sort_keys=True).encode())[:20]
    store = Store(folder, folder / f"extract-{name}.json", header, bound=bound)
    if folder.exists() and not is_cache_folder(folder, store.root):
        store.refused = (
            f"{folder} holds files and is not a cache folder of pytest-jobledger (it has no "
            "CACHEDIR.TAG), so the content cache is off; name a folder of its own with cache_dir"
        )
        return store
    try:
        store.key = load_key(config.root)
    except KeyUnavailable as exc:
        store.refused = f"{exc.reason}, so the content cache is off"
    return store


def now_ns() -> int:
    return time.time_ns()


# -- the JSON format ---------------------------------------------------------------------------


def _dump(snapshot: Snapshot, header: Mapping[str, Any]) -> dict[str, Any]:
    return {
        **header,
        "aliases": sorted(snapshot.aliases),
        "named": {name: list(said) for name, said in snapshot.named.items()},
        "files": {path: _dump_file(record) for path, record in snapshot.files.items()},
        "scans": {path: _dump_scan(record) for path, record in snapshot.scans.items()},
    }


def _dump_file(record: FileRecord) -> dict[str, Any]:
    facts = record.facts
    return {
        "stat": list(record.stat) if record.stat is not None else None,
        "digest": record.digest,
        "words": list(facts.words),
        "sites": list(facts.sites),
        "may_bind": facts.may_bind,
        "binary": facts.binary,
        "ignores": [[line, text] for line, text in facts.ignores],
        "binds": None if record.binds is None else [[n, list(s)] for n, s in record.binds],
        "problem": None if record.problem is None else record.problem.to_json(),
    }


def _dump_scan(record: ScanRecord) -> dict[str, Any]:
    return {
        "digest": record.digest,
        "found": [
            {"job": item.to_json()}
            if isinstance(item, Job)
            else {"celery": item.to_json()}
            if isinstance(item, CeleryFact)
            else {"unsupported": item.to_json()}
            for item in record.found
        ],
        "problems": [item.to_json() for item in record.problems],
        "cited": [item.to_json() for item in record.cited],
        "matched": list(record.matched),
        "modules": dict(record.trail.modules),
        "files": dict(record.trail.files),
        "skipped": sorted(record.trail.skipped),
        "inert": record.inert,
    }


def _parse(raw: bytes, header: Mapping[str, Any], key: bytes) -> Snapshot:
    head, _, body = raw.partition(b"\n")
    meta = json.loads(head)
    if not isinstance(meta, dict) or set(meta) != {"format", "mac"} or meta["format"] != FORMAT:
        return Snapshot()
    if not verify(key, body.rstrip(b"\n"), meta["mac"]):
        return Snapshot()
    data = json.loads(body)
    if not isinstance(data, dict) or any(data.get(key) != value for key, value in header.items()):
        return Snapshot()
    snapshot = Snapshot(aliases=frozenset(_strings(data["aliases"])))
    for name, said in _mapping(data["named"]).items():
        defined, near = said
        if isinstance(defined, bool) and (near is None or isinstance(near, str)):
            snapshot.named[name] = (defined, near)
    for path, item in _mapping(data["files"]).items():
        record = _record(_load_file, item)
        if record is not None:
            snapshot.files[path] = record
    for path, item in _mapping(data["scans"]).items():
        scan = _record(_load_scan, item)
        if scan is not None:
            snapshot.scans[path] = scan
    return snapshot


def _record(load: Any, item: Any) -> Any:
    """One entry, or ``None`` when it does not have the shape the cache writes."""
    try:
        return load(_mapping(item))
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return None


def _load_file(item: Mapping[str, Any]) -> FileRecord:
    stat = item["stat"]
    if stat is not None:
        values = [_int(value) for value in stat]
        if len(values) != 5:
            raise ValueError("stat")
        stat = (values[0], values[1], values[2], values[3], values[4])
    binds = item["binds"]
    if binds is not None:
        binds = tuple((_str(name), tuple(_strings(sources))) for name, sources in binds)
    problem = item["problem"]
    return FileRecord(
        stat=stat,
        digest=_str(item["digest"]),
        facts=TextFacts(
            words=tuple(_strings(item["words"])),
            sites=tuple(_strings(item["sites"])),
            may_bind=_bool(item["may_bind"]),
            binary=_bool(item["binary"]),
            ignores=tuple((_int(pair[0]), _str(pair[1])) for pair in _list(item["ignores"])),
        ),
        binds=binds,
        problem=None if problem is None else _unsupported(problem),
    )


def _load_scan(item: Mapping[str, Any]) -> ScanRecord:
    found: list[Job | Unsupported | CeleryFact] = []
    for entry in item["found"]:
        entry = _mapping(entry)
        if set(entry) == {"job"}:
            found.append(_job(entry["job"]))
        elif set(entry) == {"celery"}:
            found.append(CeleryFact.from_json(_mapping(entry["celery"])))
        elif set(entry) == {"unsupported"}:
            found.append(_unsupported(entry["unsupported"]))
        else:
            raise ValueError("found")
    modules = {
        _str(k): (None if v is None else _str(v)) for k, v in _mapping(item["modules"]).items()
    }
    files = {_str(k): _str(v) for k, v in _mapping(item["files"]).items()}
    return ScanRecord(
        digest=_str(item["digest"]),
        found=tuple(found),
        problems=tuple(_unsupported(entry) for entry in item["problems"]),
        cited=tuple(_unsupported(entry) for entry in item["cited"]),
        matched=tuple(_strings(item["matched"])),
        trail=Trail(modules=modules, files=files, skipped=set(_strings(item["skipped"]))),
        inert=_bool(item["inert"]),
    )


_JOB_TEXT = ("id", "function", "module", "path", "framework", "decorator")
_JOB_OPTIONAL_TEXT = ("name", "queue", "docstring")
_JOB_NUMBERS = ("retry_delay_s", "soft_time_limit_s", "time_limit_s")


def _job(data: Any) -> Job:
    data = _mapping(data)
    for key in _JOB_TEXT:
        _str(data[key])
    for key in _JOB_OPTIONAL_TEXT:
        if data[key] is not None:
            _str(data[key])
    for key in _JOB_NUMBERS:
        if data[key] is not None and (
            isinstance(data[key], bool) or not isinstance(data[key], (int, float))
        ):
            raise TypeError(key)
    if data["max_retries"] is not None:
        _int(data["max_retries"])
    _int(data["line"])
    _mapping(data["options"])
    for key in ("unresolved", "defaults"):
        for name, reason in _mapping(data[key]).items():
            _str(name)
            _str(reason)
    return Job.from_json(data)


def _unsupported(data: Any) -> Unsupported:
    data = _mapping(data)
    return Unsupported(
        path=_str(data["path"]),
        line=_int(data["line"]),
        pattern=Pattern(_str(data["pattern"])),
        message=_str(data["message"]),
        accepted=None if data.get("accepted") is None else _str(data["accepted"]),
    )


def _mapping(value: Any) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise TypeError("expected an object")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("expected a string")
    return value


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("expected an integer")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError("expected a boolean")
    return value


def _strings(value: Any) -> list[str]:
    if not isinstance(value, list):
        raise TypeError("expected a list")
    return [_str(item) for item in value]


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError("expected a list")
    return value
