"""The draft lane: an optional model proposes purpose prose; nothing here is ever a signature.

- ``request``: the one JSON object a command is sent per job (nothing else from the tree);
- ``screen``: docstrings that look like they hold a secret are never sent;
- ``runner``: runs the command, a fresh process per job, never through a shell, bounded;
- ``store``: the drafts file beside the overlay, written atomically under a lock.

The gate, the pytest plugin, the GitHub Action and the runbook never import this room (see
``tests/test_layering.py``): drafts cannot satisfy ``purpose_accepted``, and running a draft
command is always a person's explicit ``jobledger draft``.
"""

from __future__ import annotations
