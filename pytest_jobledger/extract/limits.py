"""What one file may cost to parse, measured before libcst ever sees it.

libcst's native parser recurses once per level of nesting and is superlinear in it: about 2,000
nested brackets (or a few thousand chained ``lambda``) overflow its stack and kill the process
with a segfault no ``except`` can catch, and long before that a file costs minutes and gigabytes
(1,000 nested calls: 30 s and 2 GB; 4,000 ``+`` terms: 45 s). So every file is first read by
:func:`measure`, a small linear scanner of our own (no recursion, no parser) that estimates how
deep the tree will nest and how much parser work the file is, and stops as soon as either is
over its limit. A file over a limit is reported as ``too-complex`` at the line where the limit
was crossed, never handed to libcst.

The scan is deliberately ours, not :mod:`tokenize` (its tables are in :mod:`.tokens`): its
verdict, and so the ledger, must be the same on every Python version the tool runs on, and
``tokenize`` changed how it reads f-strings in 3.12. It errs towards more depth, never less: each
operator of a chain is a level, as libcst nests ``a + b + c`` as ``((a + b) + c)``, though an
operator of lower precedence starts a fresh operand for the tighter ones before it.

The limits are not configurable: they protect the tool, so a scanned repository cannot lift them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .tokens import (
    BINARY_OR_UNARY,
    CODE,
    FSTRING_TEXT,
    KEYWORD_CLASS,
    NEWLINES,
    OPERATOR_CLASS,
    POSTFIX,
    PREFIX_KEYWORDS,
    SPEC_COLON,
    STATEMENT_KEYWORDS,
    STRING_END,
    line_of,
    match_end,
)

#: ``max_file_bytes`` can be raised up to this and no further by a repository's configuration:
#: files are read whole, and a pull request must not be able to make CI read gigabytes.
MAX_FILE_BYTES_CEILING = 16 * 1024 * 1024

#: Deepest nesting a file may reach: brackets, f-string fields, chained operators and
#: indentation together. libcst crashes near 2,000; ordinary code stays below 60 (CPython itself
#: refuses more than 200 nested brackets).
MAX_DEPTH = 200

#: Parser work a file may cost, in units of about one token of ordinary code: a token costs
#: more the deeper it sits (libcst is superlinear in nesting); a line end or a comment costs one,
#: a string two (four when it continues an implicit concatenation). 100,000 units is about
#: 350 KB of ordinary code, a few seconds and a few hundred MB of parsing
#: (``benchmarks/hostile_extract.py`` measures it).
MAX_WORK = 100_000
#: A token at ``n`` levels of brackets costs ``1 + n*n/64``: libcst's memory for nested calls
#: grows with the square of their depth (one line of 100 nested calls takes 22 MB).
_NEST_SQUARE_STEP = 64
_CHAIN_STEP = 32
#: An ``elif`` nests the rest of its chain (libcst crashes near 10,000 of them), more cheaply.
_ELIF_STEP = 4


@dataclass(frozen=True)
class Cost:
    """What :func:`measure` found: the deepest nesting and the work so far, the line where a
    limit was crossed (``None`` when the file is within both), and the line of the first
    character that starts no Python token (a NUL byte, a ``$``), to locate a tokenizer error."""

    depth: int
    work: int
    too_deep_line: int | None = None
    too_much_work_line: int | None = None
    stray_line: int | None = None


class _Chain:
    """The operators met since the last ``,``/``;``/``=`` at one level, by precedence class:
    a stack of ``[class, count]`` and their total. A binary operator ends the operands of the
    tighter ones before it (it pops them); a prefix operator (``-``, ``not``, ``lambda``)
    applies to what follows, so it nests whatever came before."""

    __slots__ = ("classes", "total")

    def __init__(self) -> None:
        self.classes: list[list[int]] = []
        self.total = 0

    def add(self, klass: int, *, prefix: bool = False) -> int:
        """Count one operator; the change in the total."""
        before = self.total
        classes = self.classes
        while not prefix and classes and classes[-1][0] > klass:
            self.total -= classes.pop()[1]
        if classes and classes[-1][0] == klass:
            classes[-1][1] += 1
        else:
            classes.append([klass, 1])
        self.total += 1
        return self.total - before


class _FString:
    __slots__ = ("height", "quote", "raw")

    def __init__(self, quote: str, raw: bool, height: int) -> None:
        self.quote = quote
        self.raw = raw
        self.height = height  # how many frames were open when the string began


class _Field:
    """A ``{…}`` replacement field of an f-string: nests like a bracket, and costs like two."""

    __slots__ = ("in_spec", "string")

    def __init__(self, string: _FString) -> None:
        self.string = string
        self.in_spec = False


def measure(text: str, *, max_depth: int = MAX_DEPTH, max_work: int = MAX_WORK) -> Cost:
    """Scan ``text`` once, stopping at the first limit it goes over."""
    return _Scanner(text, max_depth, max_work).run()


class _Scanner:
    def __init__(self, text: str, max_depth: int, max_work: int) -> None:
        self.text = text
        self.max_depth = max_depth
        self.max_work = max_work
        #: Open brackets (their character) and f-string fields, innermost last, and the
        #: operator chain of each level (``chains[0]`` is outside every bracket).
        self.frames: list[str | _Field] = []
        self.chains: list[_Chain] = [_Chain()]
        self.nest = 0  # open brackets, fields counted twice
        self.chain_total = 0
        self.indents: list[int] = [0]
        #: The ``elif`` chain running at each indentation level, and their total.
        self.elifs: list[int] = [0]
        self.elif_total = 0
        self.deepest = 0
        self.work = 0
        self.stray: int | None = None
        #: Whether the last token ended an operand: then ``(`` is a call and ``-`` is binary.
        self.adjacent = False

    # -- bookkeeping ---------------------------------------------------------------------------

    def _operator(self, klass: int, *, prefix: bool = False) -> None:
        self.chain_total += self.chains[-1].add(klass, prefix=prefix)
        self.adjacent = False

    def _reset(self) -> None:
        self.chain_total -= self.chains[-1].total
        self.chains[-1] = _Chain()
        self.adjacent = False

    def _push(self, frame: str | _Field) -> None:
        self.frames.append(frame)
        self.chains.append(_Chain())
        self.nest += 2 if isinstance(frame, _Field) else 1
        self.adjacent = False

    def _pop(self) -> None:
        frame = self.frames.pop()
        self.chain_total -= self.chains.pop().total
        self.nest -= 2 if isinstance(frame, _Field) else 1

    def _count(self, at: int, extra: int = 0) -> Cost | None:
        """Account one token at offset ``at``; the verdict once a limit is crossed."""
        depth = (
            len(self.indents)
            - 1
            + len(self.frames)
            + self.chain_total
            + self.elif_total // _ELIF_STEP
        )
        if depth > self.deepest:
            self.deepest = depth
        nest = self.nest
        self.work += 1 + extra + nest * nest // _NEST_SQUARE_STEP + self.chain_total // _CHAIN_STEP
        if depth > self.max_depth:
            return self._cost(too_deep=at)
        if self.work > self.max_work:
            return self._cost(too_much=at)
        return None

    def _cost(self, *, too_deep: int | None = None, too_much: int | None = None) -> Cost:
        return Cost(
            depth=self.deepest,
            work=self.work,
            too_deep_line=self._line(too_deep),
            too_much_work_line=self._line(too_much),
            stray_line=self._line(self.stray),
        )

    def _line(self, offset: int | None) -> int | None:
        return None if offset is None else line_of(self.text, offset)

    # -- the scan ------------------------------------------------------------------------------

    def run(self) -> Cost:
        text, pos, end = self.text, 0, len(self.text)
        line_start = True
        while pos < end:
            top = self.frames[-1] if self.frames else None
            if isinstance(top, _Field):
                if top.in_spec:
                    pos = self._spec(pos, top)
                    continue
                colon = SPEC_COLON.match(text, pos)
                if colon is not None:  # a ``:`` directly in a field starts its format spec
                    top.in_spec = True
                    pos = colon.end()
                    continue
            match = CODE.match(text, pos)
            assert match is not None  # ``other`` matches any character, ``end`` the end
            kind = match.lastgroup or "end"
            start, pos = match.start(kind), match.end()
            if kind in ("continuation", "end"):
                continue
            if kind in ("newline", "comment"):
                if kind == "newline" and not self.frames:
                    self._reset()
                    line_start = True
                verdict = self._count(start)
                if verdict is not None:
                    return verdict
                continue
            if line_start:
                line_start = False
                self._line_starts(start - match.start(), match.group("name"))
            if kind == "string":
                extra = 3 if self.adjacent else 1
                pos = self._string(match.group("prefix"), match.group("quote"), pos, start)
                self.adjacent = True
                verdict = self._count(start, extra)
            elif kind == "name":
                word = match.group(kind)
                klass = KEYWORD_CLASS.get(word)
                if klass is not None:
                    self._operator(klass, prefix=word in PREFIX_KEYWORDS)
                else:
                    self.adjacent = word not in STATEMENT_KEYWORDS
                verdict = self._count(start)
            elif kind in ("number", "ellipsis"):
                self.adjacent = True
                verdict = self._count(start)
            elif kind == "open":
                if self.adjacent:
                    self._operator(POSTFIX)  # a call or a subscript: one more link in a chain
                self._push(match.group(kind))
                verdict = self._count(start)
            elif kind == "close":
                pos = self._close(match.group(kind), pos)
                verdict = self._count(start)
            elif kind == "reset":
                self._reset()
                verdict = self._count(start)
            elif kind == "op":
                self._op(match.group(kind))
                verdict = self._count(start)
            elif kind == "neutral":
                self.adjacent = False
                continue
            else:  # a character that starts no token: the first one locates a tokenizer error
                if self.stray is None:
                    self.stray = start
                continue
            if verdict is not None:
                return verdict
        return self._cost()

    def _op(self, op: str) -> None:
        pair = BINARY_OR_UNARY.get(op)
        if pair is None:
            self._operator(OPERATOR_CLASS[op], prefix=op == "~")
            return
        binary = self.adjacent
        klass = pair[0] if binary else pair[1]
        if klass is None:
            self.adjacent = False
        else:
            self._operator(klass, prefix=not binary)

    def _close(self, char: str, pos: int) -> int:
        """Close the innermost bracket (or, with ``}``, an f-string field and go on with the
        string's text). A stray closer is left for libcst to report."""
        if self.frames:
            frame = self.frames[-1]
            if not isinstance(frame, _Field):
                self._pop()
            elif char == "}":
                pos = self._end_field(frame, pos)
        self.adjacent = True
        return pos

    def _end_field(self, field: _Field, pos: int) -> int:
        """Close ``field``: back to its string's text, or to the spec it is nested in."""
        self._pop()
        outer = self.frames[-1] if self.frames else None
        if isinstance(outer, _Field) and outer.in_spec:
            return pos
        return self._fstring_text(field.string, pos)

    def _line_starts(self, width: int, word: str | None) -> None:
        """A logical line starts at column ``width`` with the name ``word`` (if it starts with
        one): follow INDENT/DEDENT like the tokenizer, and the ``elif`` chain of each level."""
        if self.frames:
            return
        while len(self.indents) > 1 and width < self.indents[-1]:
            self.indents.pop()
            self.elif_total -= self.elifs.pop()
        if width > self.indents[-1]:
            self.indents.append(width)
            self.elifs.append(0)
        if word == "elif":
            self.elifs[-1] += 1
            self.elif_total += 1
        elif word != "else":
            self.elif_total -= self.elifs[-1]
            self.elifs[-1] = 0

    def _string(self, prefix: str, quote: str, pos: int, start: int) -> int:
        """Skip a string literal; an f-string's fields are scanned as code."""
        lowered = prefix.lower()
        if "f" in lowered or "t" in lowered:
            return self._fstring_text(_FString(quote, "r" in lowered, len(self.frames)), pos)
        match = STRING_END[quote].match(self.text, pos)
        if match is not None:
            return match.end()
        if self.stray is None:  # unterminated: to the end of its line, or of the file
            self.stray = start
        if len(quote) == 3:
            return len(self.text)
        newline = NEWLINES.search(self.text, pos)
        return newline.start() if newline else len(self.text)

    def _fstring_text(self, string: _FString, pos: int) -> int:
        """Literal text of ``string`` from ``pos``: up to a field (opened here) or its end."""
        text = self.text
        pattern = FSTRING_TEXT[(string.quote, string.raw)]
        while True:
            pos = match_end(pattern, text, pos)
            if pos >= len(text):
                return pos
            if text.startswith(string.quote, pos):
                return pos + len(string.quote)
            char = text[pos]
            if char in "{}" and text.startswith(char * 2, pos):
                pos += 2  # an escaped brace
            elif char == "{":
                self._push(_Field(string))
                return pos + 1
            elif char == "}":
                pos += 1  # a stray closing brace: libcst reports it
            else:  # a line end in a one-line f-string (or a lone backslash): it ends here
                return self._abandon(string, pos)

    def _spec(self, pos: int, field: _Field) -> int:
        """A field's format spec (after ``:``): text, with nested ``{…}`` fields as code."""
        text = self.text
        string = field.string
        pos = match_end(FSTRING_TEXT[(string.quote, string.raw)], text, pos)
        if text.startswith("{", pos):
            self._push(_Field(string))
            return pos + 1
        if text.startswith("}", pos):
            return self._end_field(field, pos + 1)
        if pos < len(text) and text.startswith(string.quote, pos):
            while len(self.frames) > string.height:
                self._pop()
            return pos + len(string.quote)
        return self._abandon(string, pos)

    def _abandon(self, string: _FString, pos: int) -> int:
        """An f-string that ends badly: close what it opened, and let libcst report it."""
        if self.stray is None:
            self.stray = pos
        while len(self.frames) > string.height:
            self._pop()
        return pos
