"""The verdict's side of the directive detector (:mod:`pytest_jobledger.core.directives`): a
:class:`Suspect` names a text that reads as an instruction (a cell, the docstring, the ticket) and
where it is, never what it says, and :func:`review_items` turns suspects into the
``injected-instruction`` rule's review items.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.directives import DIRECTIVES, Directive, normalise, scan

__all__ = ["DIRECTIVES", "Directive", "Suspect", "normalise", "review_items", "scan"]


@dataclass(frozen=True)
class Suspect:
    """One text that reads as an instruction: what it is (a cell, the docstring, the ticket),
    where (``path:line`` or the option), and which pattern it matched. Never the text itself:
    whatever shows a suspect shows this, so the order is not repeated as advice."""

    subject: str
    where: str
    directive: Directive

    @property
    def note(self) -> str:
        return (
            f"possible injected instruction ({self.directive.reads_as}, "
            f"[{self.directive.name}]): not counted as signed, not obeyed"
        )

    def hit(self) -> tuple[str, str, str]:
        """The review item: subject, message, fix. The fix sends a person to the place."""
        what = {"docstring": "the job's docstring", "ticket": "the --ticket text"}.get(
            self.subject, f"the `{self.subject}` cell"
        )
        return (
            self.subject,
            f"possible injected instruction in {what} at {self.where}: it reads as "
            f"{self.directive.reads_as} [{self.directive.name}]; nothing in it was obeyed, and "
            "it does not count as signed evidence",
            f"have a person read {self.where} and rewrite it as policy (what happens), not as an "
            "instruction; then ask again",
        )


def review_items(suspects: tuple[Suspect, ...], ticket: str | None) -> list[tuple[str, str, str]]:
    """The ``injected-instruction`` rule's hits: every suspect cell and docstring, and the
    ``--ticket`` text when it reads as an instruction too."""
    found = list(suspects)
    if ticket is not None and (directive := scan(ticket)) is not None:
        found.append(Suspect("ticket", "--ticket", directive))
    return [suspect.hit() for suspect in found]
