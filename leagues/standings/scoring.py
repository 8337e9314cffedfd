"""How a league scores a card: its handicap and net strokes, its place at the table
(net places share a tie, gross ones are played off) and the points it earns, by place
or by matchpoints on a duplicate night."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from fractions import Fraction

from games.engine.match import HOLES
from games.models import Scorecard, Table

from ..duplicate import matchpoints as duplicate
from ..handicaps.net import net_strokes
from ..models import League, LeagueNight
from .places import competition_places


class Scoring:
    """How the league scores cards (annotated `night_id`): handicaps, net strokes,
    places and points, by place or by matchpoints, gross or net."""

    def __init__(
        self,
        league: League,
        cards: Iterable[Scorecard],
        nights: Iterable[LeagueNight],
        visible: Callable[[Table, int], bool] | None = None,
        *,
        night_handicaps: dict[int, dict[int, Fraction]],
    ):
        """`visible(table, number)`: the holes a screen may show, for matchpoints that
        compare those alone (the night's board); None: every hole. `night_handicaps`:
        the nights' handicaps by night then player (net strokes are shown beside gross
        ones whichever earns the points)."""
        self.league = league
        cards = list(cards)
        self.handicaps = night_handicaps
        by_matchpoints = [n for n in nights if duplicate.counts_by_matchpoints(league, n)]
        self.matchpoints = duplicate.night_points(
            by_matchpoints, league, self.handicaps if league.by_net else None, visible=visible
        )
        self.net_places: dict[int, int] = {}
        if league.by_net:
            night_of = {card.table_id: card.night_id for card in cards}
            everyone = defaultdict(list)
            for pk, table_id, player_id, total in Scorecard.objects.filter(
                table_id__in=night_of
            ).values_list("pk", "table_id", "player_id", "total"):
                h = self.handicaps.get(night_of[table_id], {}).get(player_id, Fraction(0))
                everyone[table_id].append((pk, net_strokes(total, HOLES, h)))
            for table_cards in everyone.values():
                places = competition_places([net for _pk, net in table_cards])
                for (pk, _net), place in zip(table_cards, places, strict=True):
                    self.net_places[pk] = place

    def handicap(self, card: Scorecard) -> Fraction:
        return self.handicaps.get(card.night_id, {}).get(card.player_id, Fraction(0))

    def net_total(self, card: Scorecard) -> Fraction:
        """The card's strokes over the nine holes less nine times its handicap."""
        return net_strokes(card.total, HOLES, self.handicap(card))

    def place(self, card: Scorecard) -> int | None:
        """The card's place at its table: net places share a tie, gross ones are played off."""
        return self.net_places.get(card.pk) if self.league.by_net else card.place

    def points(self, card: Scorecard) -> int:
        """Points by matchpoints where the card was compared, else by place at the table."""
        if (card.night_id, card.player_id) in self.matchpoints:
            return self.matchpoints[card.night_id, card.player_id]
        return self.league.points_for(self.place(card))
