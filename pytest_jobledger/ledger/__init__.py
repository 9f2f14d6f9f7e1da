"""The code lane: the ledger's records, the committed ledger file, what changed, and renames.

- ``model``: :class:`Job`, :class:`Unsupported` (with its :class:`Pattern`) and :class:`Ledger`;
- ``store``: reading the committed ledger and writing a fresh one;
- ``diff``: what changed between the committed ledger and a fresh extraction;
- ``renames``: which orphaned overlay entry an unsigned job most likely was;
- ``reruns``: whether a job's framework runs it again (late ack, retries), from its row.
"""
