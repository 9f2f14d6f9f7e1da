"""``jobledger stub``: edits overlay text and never signs a cell.

- ``plan``: which entries to add, fill or move, and the line edits (:func:`stub_overlay`);
- ``layout`` (+ ``lines``, ``style``): where things are in the overlay's text (entries, their
  comments) and how it is written (indentation, quotes);
- ``emit``: the text of a new entry, quoted so that every YAML reader agrees;
- ``fill``: the cells an entry lacks once ``required_cells`` grew; ``rename``: ``--rename``'s
  refusals; ``quoting``: ``--quote-yes-no``;
- ``proof``: the check that the new text means the old one plus the intended change;
  ``refusals``: what is never written; ``result``: what a run did, as the user reads it;
- ``swap``: the write that keeps an editor's save; ``memo``: a run with nothing to do answered
  from a signed memo of its inputs, without parsing YAML.
"""
