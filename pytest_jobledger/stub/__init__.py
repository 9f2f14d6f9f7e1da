"""``jobledger stub``: edits overlay text and never signs a cell.

- ``plan``: which entries to add or move, and the line edits that do it (:func:`stub_overlay`);
- ``layout``: where things are in the overlay's text (entries, their comments, the indentation);
- ``emit``: the text of a new entry, quoted so that every YAML reader agrees;
- ``proof``: the check that the new text means the old one plus the intended change.
"""
