"""The leaves: modules that import nothing of the package but each other.

- ``errors``: the located user errors (one base, ``path:line`` in front);
- ``text``: one line, clipped, "did you mean", the printer every command writes through;
- ``readers``: the one strict parser per format (JSON, TOML, YAML), every library error a
  located problem; it only parses;
- ``paths``: the root boundary (inside the root, regular files, a path the system can name) and
  the one low-level read of a file's bytes;
- ``atomic``: the one writer (atomic, durable, never through a symlink or into ``.git``);
- ``outside``: the writer's other half, for files outside any project (the runner's, a private
  scratch folder, this user's own files);
- ``environment``: every ``JOBLEDGER_*`` variable, named and read here only;
- ``trace``: a note of each reading a session makes, for the suite;
- ``redact``: the one redaction step every docstring and cell text passes before it is shown
  (a memo of earlier runs' results can be handed in);
- ``shapes``: a quick strict check of a record against the JSON Schema subset the trail's
  schemas use (``True`` only when surely valid; otherwise the full validator decides);
- ``fingerprint``: what a memo's key says of the tool (its code, the libraries it stands in for);
- ``directives``: text that reads as an order (a possible injected instruction), one detector
  for the gate and the verdict.

``git.py`` and ``programs.py`` (the one program runner) stay at the package's top level: the
repository's boundary check looks for git being started in ``pytest_jobledger/git.py`` alone.
"""
