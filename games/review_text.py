"""A hole review in words: each decision as its player saw it, numbered by its move.

Every decision is told from `engine.view(state, seat)` of the reviewed seat at that
moment, the same view it was judged from, so a card is named only if that seat could
see it then: the card it drew, the discard pile's top, its own face-up cards. A
face-down card is named by its place alone, even where it was turned up later. The
cards' names and the skip's come from the hole's `Variant`.

A decision is numbered by the move it was, the replay's step for it (the deal is step
0, so the decision made at version v is move v + 1), and links there; the replay
links its step back to the decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from games import engine

from .models import Hole, HoleReview, Table
from .selectors import replay_states

#: A decision reckoned to give away more than this many strokes is marked.
REVIEW_MARK = 0.5

_ROWS = {1: ["row"], 2: ["top row", "bottom row"], 3: ["top row", "middle row", "bottom row"]}
_ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth"]


def place(rules: engine.Variant, position: int) -> str:
    """A place in a course, as a player would say it: "top row, second from left"."""
    row, column = divmod(position, rules.cols)
    rows = _ROWS.get(rules.rows) or [f"row {n + 1}" for n in range(rules.rows)]
    if column == 0:
        across = "far left"
    elif column == rules.cols - 1:
        across = "far right"
    else:
        across = f"{_ORDINALS[column]} from left"
    return f"{rows[row]}, {across}"


def _card_at(rules: engine.Variant, course: list[Any], position: int) -> str:
    """The card at a place of the seat's own course, as it saw it."""
    card = course[position]
    if card is None:
        return f"the face-down card at {place(rules, position)}"
    return f"the {rules.card_name(card)} at {place(rules, position)}"


def choice_words(
    rules: engine.Variant, seen: dict[str, Any], action: dict, who: str = "you"
) -> str:
    """A decision in words, from `seen`, the deciding seat's view before it: it names the
    cards that seat could see, and a face-down card by its place. `who` drew the card in
    hand ("you", "Ana")."""
    kind = action["type"]
    course = seen["layouts"][seen["seat"]]
    held = seen["held"]
    if held is None:
        drawn = f"the card {who} drew"
    else:
        how = "took" if seen["held_from"] == "discard" else "drew"
        drawn = f"the {rules.card_name(held)} {who} {how}"
    if kind == "tee_off":
        places = [place(rules, p) for p in sorted(action["positions"])]
        return "turn up the face-down cards at " + " and ".join(places)
    if kind == "draw" and action["source"] == "pile":
        return "draw from the draw pile"
    if kind == "draw":
        top = seen["discard_top"]
        return f"take the {rules.card_name(top)} from the discard pile"
    if kind == "replace":
        return f"swap {drawn} for {_card_at(rules, course, action['position'])}"
    if kind == "flip":
        return f"discard {drawn} and turn up {_card_at(rules, course, action['position'])}"
    if kind == "discard":
        return f"skip: discard {drawn}" if rules.can_skip else f"discard {drawn}"
    if kind == "knock":
        return "knock"
    first, second = sorted(action["positions"])
    return f"swap {_card_at(rules, course, first)} with {_card_at(rules, course, second)}"


def strokes(figure: float) -> str:
    """`figure` strokes, to a tenth: "2.1 strokes", "1 stroke"."""
    text = f"{figure:.1f}".removesuffix(".0")
    return f"{text} stroke" + ("" if text == "1" else "s")


@dataclass(frozen=True)
class ReviewedDecision:
    """One decision of a hole review, in words."""

    #: The move it was: the replay's step.
    move: int
    played: str
    #: The best play found, when it was not the one played.
    best: str | None
    played_strokes: float
    best_strokes: float
    #: The strokes it gave away, to a tenth: what the page shows and the total adds up.
    cost: float
    replay_url: str

    @property
    def marked(self) -> bool:
        return self.cost > REVIEW_MARK

    @property
    def anchor(self) -> str:
        return f"move-{self.move}"

    @property
    def cost_words(self) -> str:
        return f"cost about {strokes(self.cost)} on average"


@dataclass(frozen=True)
class HoleReviewText:
    """A stored review told for its page: every decision and the figure they add up to."""

    decisions: list[ReviewedDecision]
    #: The decisions' costs added up, as shown.
    given_away: float
    scored: int | None
    #: Whose review it is, told to someone else; None: told to the player.
    name: str | None = None

    @property
    def marked(self) -> list[ReviewedDecision]:
        return [d for d in self.decisions if d.marked]

    @property
    def rest(self) -> list[ReviewedDecision]:
        return [d for d in self.decisions if not d.marked]

    @property
    def headline(self) -> str:
        """One sentence: what the choices cost against the best play found (the costs
        shown, added up), and what the player scored."""
        whose, who = ("your", "you") if self.name is None else (f"{self.name}'s", self.name)
        scored = f"; {who} scored {self.scored}" if self.scored is not None else ""
        if self.given_away == 0:
            return f"{whose.capitalize()} choices were as good as the best play found{scored}."
        return (
            f"Against the best play found, {whose} choices cost about "
            f"{strokes(self.given_away)} on average{scored}."
        )


def review_text(
    table: Table, hole: Hole, review: HoleReview, name: str | None = None
) -> HoleReviewText:
    """`review` in words, each decision told from its seat's view at the time, to the
    player who made them, or to another (`name`: the player's)."""
    who = "you" if name is None else name
    rules = table.rules
    seat = hole.seat_positions.index(review.position)
    states = replay_states(hole)
    replay = reverse("games:replay", args=[table.pk, hole.number])
    decisions = []
    for stored in review.decisions:
        version = stored["version"]
        seen = engine.view(states[version][0], seat)
        cost = round(stored["cost"], 1)
        best = None if stored["best"] == stored["played"] or cost == 0 else stored["best"]
        decisions.append(
            ReviewedDecision(
                move=version + 1,
                played=choice_words(rules, seen, stored["played"], who),
                best=choice_words(rules, seen, best, who) if best is not None else None,
                played_strokes=stored["played_strokes"],
                best_strokes=stored["best_strokes"],
                cost=cost,
                replay_url=f"{replay}?move={version + 1}",
            )
        )
    scores = hole.scores
    return HoleReviewText(
        decisions=decisions,
        given_away=round(sum(d.cost for d in decisions), 1),
        scored=scores[seat] if scores else None,
        name=name,
    )


def decision_link(table: Table, hole: Hole, step: int, position: int | None) -> str | None:
    """The review of the decision the replay's `step` was, when it is stored and was a
    decision of the seat at `position` (None: no seat moved, the deal)."""
    if position is None or step < 1:
        return None
    stored = HoleReview.objects.filter(hole=hole, position=position).first()
    if stored is None or not any(d["version"] == step - 1 for d in stored.decisions):
        return None
    review = reverse("games:review", args=[table.pk, hole.number, position])
    return f"{review}#move-{step}"
