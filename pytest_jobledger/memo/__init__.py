"""Memos of what the read-only commands (``list``, ``show``, ``verdict``) worked out last time.

An operator types these during an incident, on a tree that has not changed since the last run;
what made them slow was recomputing the same answers: the fresh extraction that only says whether
the committed ledger is stale, ruamel.yaml's round-trip parse of the overlay (with PyYAML and the
schema validator), and detect-secrets over every signed cell. Each is remembered here, in the
content cache's folder, under an HMAC of this machine's key, and used only when the file on disk
is whole, signed by that key and made from exactly these inputs:

- ``signed``: the one memo file (its key: the tool's version and code, Python, the whole
  configuration, and what each memo adds), read and written the same way for all three;
- ``fresh``: the fresh ledger, keyed by every file discovery finds (path, module, size, times,
  inode), recorded only when nothing changed while it was extracted; and ``patterns``, pathspec's
  translation of each gitignore line seen before (keyed by pathspec's installation);
- ``parsed``: the parsed overlay and owners roster, keyed by their bytes and the YAML and schema
  libraries (a file that does not parse is parsed again each time, so its error is the same
  located one);
- ``redaction``: each text's redaction, keyed by the text, where it is shown and the detectors
  installed (a text never seen goes through both detectors), and which order-like pattern each
  text matched (a text never seen is scanned in full).

A missing, corrupt, truncated or foreign memo (one a pull request committed into the cache
folder cannot carry the key) is ignored and the full path runs; ``--no-cache`` neither reads nor
writes any. A memo is unpickled only after its HMAC verifies, and then only into this
package's records (:func:`.signed.unpickled` refuses a payload naming any other callable): data,
never code, even under a stolen key.
"""
