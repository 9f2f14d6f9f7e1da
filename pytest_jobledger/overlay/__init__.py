"""The human lane, read side: what the overlay says, and every refusal located at its line.

- ``model``: :class:`Cell`, :class:`Entry`, :class:`Overlay` (plain records, no YAML types);
- ``reader``: reading the file, its refusals (size, aliases, odd keys, shape), and both YAML
  readings of each cell;
- ``yaml_errors``: the one adapter that turns ruamel.yaml and PyYAML errors into a located
  message, for the reader and the stub alike;
- ``values``: plain values from YAML, compared across YAML versions and described in messages;
- ``schema``: the published overlay schema.
"""
