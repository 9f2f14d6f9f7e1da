"""The pytest plugin (``pytest --jobledger``); filled in by the gate work."""
