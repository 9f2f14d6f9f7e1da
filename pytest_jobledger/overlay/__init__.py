"""The human lane, read side: what the overlay says, and every refusal located at its line.

- ``model``: :class:`Cell`, :class:`Entry`, :class:`Overlay` (plain records, no YAML types);
- ``reader``: reading the file, its refusals (size, aliases, odd keys, shape), and both YAML
  readings of each cell;
- ``cells``: the vocabulary (every cell a person may sign, and what answer it takes);
- ``values``: plain values from YAML, compared across YAML versions and described in messages;
- ``roster``: the owners roster a ``paging_owner`` may name;
- ``schema``: the published overlay schema.

A YAML library's error becomes a located sentence in ``readers.py`` (every strict reader shares
it).
"""
