"""The five games: their layouts, decks, cards, scoring and which moves they allow,
and the house rules each game may be played with.

Everything that differs from one game to another is an attribute or a method of
its `Variant`, so the rest of the engine, the pages and the bots ask the variant
and never compare its key. A game played with house rules is a variant of its own,
derived from the game's: its key is the game's key and the rules' keys joined by
"+" ("golf-6+last-turns"), and every function that takes a key takes that one.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import (
    JOKER,
    PLAY_NINE_CARDS,
    PLAY_NINE_VALUES,
    RANKS,
    STANDARD_CARDS,
    STANDARD_RANK,
    Card,
    CardKind,
)
from .layouts import (
    AdjacentScoring,
    CardScorer,
    ColumnScoring,
    Groups,
    PlayNineScoring,
    Scoring,
    score_range,
)

# 6-, 4- and 9-card Golf: A = 1, 2 = -2, faces 3-10, J = Q = 10, K = 0.
_GOLF_RANK_VALUES = {"A": 1, "2": -2, "J": 10, "Q": 10, "K": 0}
_GOLF_RANK_VALUES.update({rank: int(rank) for rank in RANKS[2:10]})
# Three decks with jokers: twos count 2 and the joker is the low card.
_THREE_DECK_RANK_VALUES = {**_GOLF_RANK_VALUES, "2": 2, JOKER: -2}


def _values(rank_values: Mapping[str, int]) -> dict[Card, int]:
    return {card: rank_values[rank] for card, rank in STANDARD_RANK.items() if rank in rank_values}


@dataclass(frozen=True)
class Variant:
    """One game of the family: everything the engine, the pages and the bots ask about it."""

    key: str
    name: str
    rows: int
    cols: int
    min_players: int
    max_players: int
    opening_flips: int
    #: The kind of card the game is played with: how its cards are written and named.
    cards: CardKind
    #: How a layout scores: which cards pair up and what pairs earn.
    scoring: Scoring
    #: Play Nine: a card drawn from the pile may be discarded to turn a card up.
    can_flip: bool = False
    #: A card drawn from the pile may be discarded with nothing else done, at any time.
    free_discard: bool = False
    #: Play Nine's skip: that plain discard only with exactly one card face down.
    can_skip: bool = False
    #: 4-card Golf: a player may knock instead of drawing.
    can_knock: bool = False
    #: Three decks: a player may rearrange their layout before their first draw.
    can_swap: bool = False
    #: The hole ends the moment one layout is all face up (no last turns).
    ends_at_once: bool = False
    #: Exposing the last face-down card gives every other player one more turn.
    last_turns_after_out: bool = False
    #: No knocking until every player has taken a turn.
    knock_after_first_round: bool = False
    #: How many decks for fewer than `more_decks_from` players (one more from there).
    decks: int = 1
    more_decks_from: int | None = None
    jokers_per_deck: int = 0
    #: The score of each card of the deck.
    values: Mapping[Card, int] = field(default_factory=dict, compare=False, repr=False)
    #: What makes two cards a pair (Play Nine: the value; standard decks: the rank).
    ranks: Mapping[Card, Card] = field(default_factory=dict, compare=False, repr=False)
    #: The house rules in force (none: the game as its rules page tells it).
    house_rules: tuple[HouseRule, ...] = ()
    #: The master bot's weights, in the order of `bots.MASTER_FEATURES`, as printed by
    #: `python -m games.engine.train` (None: the master plays as expert). House rules
    #: keep their game's.
    master_weights: tuple[float, ...] | None = field(default=None, compare=False, repr=False)

    @property
    def size(self) -> int:
        """How many cards a layout holds."""
        return self.rows * self.cols

    def deck(self, players: int) -> list[Card]:
        """The whole deck for `players`, in a fixed order (shuffle before dealing)."""
        decks = self.decks
        if self.more_decks_from is not None and players >= self.more_decks_from:
            decks += 1
        return self.cards.deck(decks, self.jokers_per_deck)

    # --- the cards, written and named ---------------------------------------------------

    def card_text(self, card: Card) -> str:
        """The short face of a card: "-5", "12", "A\u2660", "10\u2666", "Joker"."""
        return self.cards.text(card)

    def card_label(self, card: Card) -> str:
        """The card's name for a screen reader: "Hole-in-One, minus 5", "Queen of hearts"."""
        return self.cards.label(card)

    def card_name(self, card: Card) -> str:
        """The card as the move log names it after "the": "-5", "Queen of hearts"."""
        return self.cards.name(card)

    def tone(self, card: Card | None) -> str:
        """A colour class for a card: "down" when face down (None); Play Nine's value
        bands "ace" (below 0), "low" (to 4), "mid" (to 8), "high"; a standard card's
        "red" or "black", and "joker"."""
        return "down" if card is None else self.cards.tone(card)

    # --- the moves ----------------------------------------------------------------------

    def may_knock(self, drawn: Sequence[bool]) -> bool:
        """Whether a player may knock now, given which seats have drawn this hole (the
        first round is over once every seat has drawn: nobody knocks during it)."""
        return self.can_knock and (not self.knock_after_first_round or all(drawn))

    # --- house rules --------------------------------------------------------------------

    @property
    def game(self) -> Variant:
        """The game these rules are house rules of (the variant itself when it has none)."""
        return VARIANTS[self.key.partition("+")[0]]

    @property
    def house_rule_options(self) -> tuple[HouseRule, ...]:
        """Every house rule this game may be played with."""
        return HOUSE_RULES.get(self.game.key, ())

    @property
    def house_rule_keys(self) -> tuple[str, ...]:
        """The keys of the house rules in force, in the game's order."""
        return tuple(rule.key for rule in self.house_rules)

    @property
    def full_name(self) -> str:
        """The game's name with its house rules: "6-card Golf (last turns, jokers)"."""
        if not self.house_rules:
            return self.name
        return f"{self.name} ({', '.join(rule.name for rule in self.house_rules)})"

    def may_discard(self, face_down: int) -> bool:
        """Whether a player with `face_down` cards face down may discard a card drawn
        from the pile and do nothing else."""
        return self.free_discard or (self.can_skip and face_down == 1)

    @property
    def discard_label(self) -> str:
        """The words on the plain discard's button."""
        return "Skip: discard it" if self.can_skip else "Discard it"

    # --- scoring ------------------------------------------------------------------------

    def score(self, cards: Sequence[Card]) -> int:
        """The strokes of a fully face-up layout (row-major); `ValueError` if it is not one."""
        if len(cards) != self.rows * self.cols:
            raise ValueError(f"A {self.name} layout holds {self.size} cards.")
        try:
            return self._score_cards(cards)
        except (KeyError, TypeError):
            raise ValueError(
                f"A layout to score must hold only {self.name} cards, all face up."
            ) from None

    @functools.cached_property
    def _score_cards(self) -> CardScorer:
        return self.scoring.card_scorer(self.rows, self.cols, self.ranks, self.values)

    def score_ranks(self, ranks: Sequence[Hashable], values: Sequence[float]) -> float:
        """The strokes of a layout given each card's rank and value, unchecked, so that
        the bots can score a layout with stand-ins for the cards they cannot see."""
        return self.scoring.score(self.rows, self.cols, ranks, values)

    def pair_groups(self, ranks: Sequence[Hashable]) -> Groups:
        """The position groups that pair up, given each position's rank."""
        return self.scoring.pair_groups(self.rows, self.cols, ranks)

    def scoring_pairs(self, cards: Sequence[Card]) -> Groups:
        """The position groups that pair up in a full face-up layout (for highlighting)."""
        ranks, _ = self._read(cards, "A layout must hold only {} cards.")
        return self.pair_groups(ranks)

    @functools.cached_property
    def score_range(self) -> tuple[int, int]:
        """The lowest and highest strokes one hole can score (worked out once)."""
        deck = self.deck(self.max_players)
        return score_range(self.scoring, self.rows, self.cols, deck, self.ranks, self.values)

    def _read(self, cards: Sequence[Card], refusal: str) -> tuple[list[Card], list[int]]:
        if len(cards) != self.size:
            raise ValueError(f"A {self.name} layout holds {self.size} cards.")
        try:
            return [self.ranks[card] for card in cards], [self.values[card] for card in cards]
        except (KeyError, TypeError):
            raise ValueError(refusal.format(self.name)) from None


_PLAY_NINE_VALUES = {value: value for value in PLAY_NINE_VALUES}
_golf_values = _values(_GOLF_RANK_VALUES)
_three_deck_values = _values(_THREE_DECK_RANK_VALUES)
_golf_ranks = {card: STANDARD_RANK[card] for card in _golf_values}
_GOLF_COLUMNS = ColumnScoring()


@dataclass(frozen=True)
class HouseRule:
    """One house rule a game may be played with: what it is called and what it changes."""

    key: str
    #: A few words for lists: "last turns".
    name: str
    #: The rule in a sentence, for the rules page and the table.
    text: str
    #: The variant's attributes under this rule, given the variant so far.
    changes: Callable[[Variant], dict[str, Any]] = field(compare=False, repr=False)


def _with_rank_value(rules: Variant, rank: str, value: int) -> dict[str, Any]:
    values = dict(rules.values)
    values.update((card, value) for card, card_rank in STANDARD_RANK.items() if card_rank == rank)
    return {"values": values, "ranks": {card: STANDARD_RANK[card] for card in values}}


_NO_SKIP = HouseRule(
    "no-skip",
    "no skip",
    "There is no skip: with one card face down, a card from the draw pile must be used "
    "to replace a card or be discarded to turn that last card up.",
    lambda rules: {"can_skip": False},
)
_LAST_TURNS = HouseRule(
    "last-turns",
    "last turns",
    "When a player turns up their last card, every other player takes one more turn "
    "before the hole ends.",
    lambda rules: {"ends_at_once": False, "last_turns_after_out": True},
)
_JOKERS = HouseRule(
    "jokers",
    "jokers",
    "Two jokers join each deck; a joker scores -2 and pairs up like any other rank.",
    lambda rules: {"jokers_per_deck": 2, **_with_rank_value(rules, JOKER, -2)},
)
_KINGS_MINUS_TWO = HouseRule(
    "kings-minus-2",
    "Kings -2",
    "A King scores -2 instead of 0; Kings still pair up, and a pair cancels as any does.",
    lambda rules: _with_rank_value(rules, "K", -2),
)
_NO_FIRST_KNOCK = HouseRule(
    "no-first-knock",
    "no knock in the first round",
    "Nobody may knock until every player has taken a turn.",
    lambda rules: {"knock_after_first_round": True},
)
_WHOLE_COLUMNS = HouseRule(
    "whole-columns",
    "whole columns only",
    "Only a column of three equal ranks scores 0; two equal cards in a column score "
    "their face value.",
    lambda rules: {"scoring": ColumnScoring(whole_columns_only=True)},
)
_NO_REARRANGING = HouseRule(
    "no-rearranging",
    "no rearranging",
    "Nobody rearranges their layout: the cards stay where they were dealt.",
    lambda rules: {"can_swap": False},
)

#: The house rules of each game, in the order they are offered and named.
HOUSE_RULES: dict[str, tuple[HouseRule, ...]] = {
    "play-nine": (_NO_SKIP,),
    "golf-6": (_LAST_TURNS, _JOKERS, _KINGS_MINUS_TWO),
    "golf-4": (_NO_FIRST_KNOCK, _JOKERS, _KINGS_MINUS_TWO),
    "golf-9": (_LAST_TURNS, _WHOLE_COLUMNS, _JOKERS, _KINGS_MINUS_TWO),
    "golf-9-3deck": (_NO_REARRANGING, _KINGS_MINUS_TWO),
}

VARIANTS: dict[str, Variant] = {
    variant.key: variant
    for variant in (
        Variant(
            key="play-nine",
            name="Play Nine",
            rows=2,
            cols=4,
            min_players=2,
            max_players=6,
            opening_flips=2,
            cards=PLAY_NINE_CARDS,
            scoring=PlayNineScoring(),
            can_flip=True,
            can_skip=True,
            last_turns_after_out=True,
            values=_PLAY_NINE_VALUES,
            ranks=_PLAY_NINE_VALUES,
            master_weights=(
                0.783,
                0.672,
                0.350,
                -0.964,
                -0.855,
                -0.137,
                0.872,
                0.526,
                1.668,
                -0.141,
                0.141,
                0.083,
            ),
        ),
        Variant(
            key="golf-6",
            name="6-card Golf",
            rows=2,
            cols=3,
            min_players=2,
            max_players=6,
            opening_flips=2,
            cards=STANDARD_CARDS,
            scoring=_GOLF_COLUMNS,
            free_discard=True,
            ends_at_once=True,
            more_decks_from=4,
            values=_golf_values,
            ranks=_golf_ranks,
            master_weights=(
                0.958,
                0.852,
                0.725,
                -0.677,
                -1.328,
                -1.157,
                -1.133,
                0.024,
                0.152,
                -4.035,
                0.014,
                0.231,
            ),
        ),
        Variant(
            key="golf-4",
            name="4-card Golf (knocking)",
            rows=2,
            cols=2,
            min_players=3,
            max_players=7,
            opening_flips=2,
            cards=STANDARD_CARDS,
            scoring=_GOLF_COLUMNS,
            free_discard=True,
            can_knock=True,
            more_decks_from=4,
            values=_golf_values,
            ranks=_golf_ranks,
            master_weights=(
                0.613,
                0.605,
                0.000,
                -0.779,
                -1.074,
                0.000,
                0.002,
                0.268,
                0.000,
                -2.257,
                -0.170,
                0.119,
            ),
        ),
        Variant(
            key="golf-9",
            name="9-card Golf",
            rows=3,
            cols=3,
            min_players=2,
            max_players=6,
            opening_flips=3,
            cards=STANDARD_CARDS,
            scoring=_GOLF_COLUMNS,
            free_discard=True,
            ends_at_once=True,
            more_decks_from=4,
            values=_golf_values,
            ranks=_golf_ranks,
            master_weights=(
                0.905,
                0.824,
                0.543,
                -0.541,
                -1.045,
                -0.538,
                0.189,
                0.419,
                1.918,
                -2.701,
                0.113,
                0.116,
            ),
        ),
        Variant(
            key="golf-9-3deck",
            name="9-card Golf, three decks with jokers",
            rows=3,
            cols=3,
            min_players=2,
            max_players=8,
            opening_flips=3,
            cards=STANDARD_CARDS,
            scoring=AdjacentScoring(),
            free_discard=True,
            can_swap=True,
            last_turns_after_out=True,
            decks=3,
            jokers_per_deck=2,
            values=_three_deck_values,
            ranks=dict(STANDARD_RANK),
            master_weights=(
                0.966,
                0.938,
                0.611,
                -1.555,
                -2.059,
                -1.030,
                -1.221,
                -1.485,
                0.770,
                -5.372,
                -0.124,
                0.109,
            ),
        ),
    )
}


def get_variant(variant: str | Variant) -> Variant:
    """The `Variant` for a key, house rules' keys included (or the variant itself);
    `ValueError` when unknown."""
    if isinstance(variant, str):
        rules = VARIANTS.get(variant)
        if rules is not None:
            return rules
        game, _, options = variant.partition("+")
        if options and game in VARIANTS:
            return with_house_rules(game, options.split("+"))
    elif isinstance(variant, Variant):
        return variant
    raise ValueError(f"Unknown variant {variant!r}.")


def with_house_rules(variant: str | Variant, house_rules: Iterable[str]) -> Variant:
    """`variant`'s game played with `house_rules` (keys of its `house_rule_options`, in
    any order), replacing any it had; `ValueError` for a rule the game does not offer
    or one given twice. With no rules it is the game itself."""
    if isinstance(house_rules, str) or not isinstance(house_rules, Iterable):
        raise ValueError("House rules come as a list of their keys.")
    chosen = list(house_rules)
    # Pages ask a table's rules for every card they draw: a choice seen before is a
    # lookup. Only accepted choices are kept, so the cache stays small.
    asked = (variant, tuple(chosen)) if isinstance(variant, str) else None
    try:
        known = _CHOSEN.get(asked)
    except TypeError:  # an unhashable item: refused below
        asked = known = None
    if known is not None:
        return known
    rules = _derive(get_variant(variant).game.key, frozenset(_checked(variant, chosen)))
    if asked is not None:
        _CHOSEN[asked] = rules
    return rules


_CHOSEN: dict[tuple[str, tuple], Variant] = {}


def _checked(variant: str | Variant, chosen: list[object]) -> list[str]:
    game = get_variant(variant).game
    offered = {rule.key for rule in game.house_rule_options}
    for key in chosen:
        if not isinstance(key, str) or key not in offered:
            raise ValueError(f"{game.name} has no house rule {key!r}.")
    if len(set(chosen)) != len(chosen):
        raise ValueError("Choose each house rule once.")
    return chosen


@functools.cache
def _derive(game: str, chosen: frozenset[str]) -> Variant:
    rules = VARIANTS[game]
    in_force = tuple(rule for rule in rules.house_rule_options if rule.key in chosen)
    if not in_force:
        return rules
    for rule in in_force:
        rules = dataclasses.replace(rules, **rule.changes(rules))
    key = "+".join((game, *(rule.key for rule in in_force)))
    return dataclasses.replace(rules, key=key, house_rules=in_force)


class Rulebook(dict):
    """`{key: Variant}` for every key `get_variant` knows, house rules included, filled
    as keys are asked for: the engine's own lookup of a state's variant."""

    def __missing__(self, key: str) -> Variant:
        rules = self[key] = get_variant(key)
        return rules


class ByVariant(dict):
    """`{key: make(variant)}`, worked out once per variant key when first asked for."""

    def __init__(self, make: Callable[[Variant], Any]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: str) -> Any:
        made = self[key] = self.make(RULEBOOK[key])
        return made


RULEBOOK = Rulebook(VARIANTS)


# --- the public functions by key, each asking the variant -----------------------------------


def card_text(variant: str | Variant, card: Card) -> str:
    """The short face of a card of `variant`: "-5", "12", "A\u2660", "10\u2666", "Joker"."""
    return get_variant(variant).card_text(card)


def card_label(variant: str | Variant, card: Card) -> str:
    """The screen reader's name of a card of `variant`: "Hole-in-One, minus 5"."""
    return get_variant(variant).card_label(card)


def score_layout(variant: str | Variant, cards: Sequence[Card]) -> int:
    """The strokes of a fully face-up layout (row-major) under `variant`'s rules."""
    return get_variant(variant).score(cards)


def scoring_pairs(variant: str | Variant, cards: Sequence[Card]) -> Groups:
    """The position groups that scored as pairs in a full face-up layout (for highlighting)."""
    return get_variant(variant).scoring_pairs(cards)


def hole_score_range(variant: str | Variant) -> tuple[int, int]:
    """The lowest and highest strokes one hole of `variant` can score."""
    return get_variant(variant).score_range
