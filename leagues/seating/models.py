"""A night's tables, as seating deals them: each one games.Table, live or paper. A model
of the `leagues` app, kept in the seating room; `leagues.models` holds it too."""

from __future__ import annotations

from django.db import models


class NightTable(models.Model):
    """A table of a league night: one games.Table, played live or with a physical deck."""

    night = models.ForeignKey(
        "leagues.LeagueNight", on_delete=models.CASCADE, related_name="tables"
    )
    table = models.OneToOneField(
        "games.Table", on_delete=models.CASCADE, related_name="night_table"
    )
    number = models.PositiveSmallIntegerField(help_text="Table 1, 2, ... of the night.")

    class Meta:
        ordering = ["night", "number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="unique_night_table"),
        ]

    def __str__(self) -> str:
        return f"{self.night}, table {self.number}"

    @property
    def is_paper(self) -> bool:
        return self.table.kind == self.table.Kind.PAPER

    def get_absolute_url(self) -> str:
        return f"{self.night.get_absolute_url()}#table-{self.number}"
