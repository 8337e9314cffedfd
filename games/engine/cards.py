"""The cards: what each deck holds, how it is shuffled, how a card is written and named.

Play Nine cards are their stroke values as ints (-5 is the Hole-in-One, 0 the
Mulligan). Standard cards are strings, rank then suit ("AS", "10D", "QH"); the
joker is "JK". A card's score depends on the game, so values live with the
variants; this module knows only ranks and faces. The two kinds of card are
`PLAY_NINE_CARDS` and `STANDARD_CARDS`; each variant names the kind it deals.
"""

from __future__ import annotations

import random

Card = int | str

HOLE_IN_ONE = -5
PLAY_NINE_VALUES = (HOLE_IN_ONE, *range(13))
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
JOKER = "JK"

_RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}

#: Every standard card (jokers included) and its rank; suits never score.
STANDARD_RANK: dict[str, str] = {rank + suit: rank for rank in RANKS for suit in SUITS}
STANDARD_RANK[JOKER] = JOKER


def play_nine_deck() -> list[int]:
    """The 108-card Play Nine deck: four Hole-in-Ones and eight each of 0 to 12."""
    return [HOLE_IN_ONE] * 4 + [value for value in range(13) for _ in range(8)]


def standard_deck(decks: int = 1, jokers_per_deck: int = 0) -> list[str]:
    """`decks` standard 52-card decks, each with `jokers_per_deck` jokers."""
    one = [rank + suit for suit in SUITS for rank in RANKS] + [JOKER] * jokers_per_deck
    return one * decks


def is_play_nine_card(card: object) -> bool:
    """Whether `card` is a Play Nine card (an int, never a bool)."""
    return type(card) is int and (card == HOLE_IN_ONE or 0 <= card <= 12)


def is_standard_card(card: object) -> bool:
    """Whether `card` is a standard card or a joker, as written in this engine."""
    return type(card) is str and card in STANDARD_RANK


class CardKind:
    """One kind of card: which cards a deck holds and how each is written and named.

    `text`, `label` and `name` raise `ValueError` for anything that is not a card
    of this kind, so a screen never shows a guess.
    """

    #: What the kind is called in an error message.
    noun = "card"

    def is_card(self, card: object) -> bool:
        """Whether `card` is a card of this kind."""
        raise NotImplementedError

    def deck(self, decks: int, jokers_per_deck: int) -> list[Card]:
        """`decks` whole decks of this kind, in a fixed order."""
        raise NotImplementedError

    def text(self, card: Card) -> str:
        """The short face of a card."""
        raise NotImplementedError

    def label(self, card: Card) -> str:
        """The card's name for a screen reader."""
        raise NotImplementedError

    def name(self, card: Card) -> str:
        """The card as a sentence of the move log names it, after "the"."""
        raise NotImplementedError

    def tone(self, card: Card) -> str:
        """A colour class for a face-up card."""
        raise NotImplementedError

    def _check(self, card: object) -> None:
        if not self.is_card(card):
            raise ValueError(f"{card!r} is not a {self.noun}.")


class PlayNineCards(CardKind):
    """Play Nine's cards, written as their numbers: -5 (Hole-in-One), 0 (Mulligan) to 12."""

    noun = "Play Nine card"

    def is_card(self, card: object) -> bool:
        return is_play_nine_card(card)

    def deck(self, decks: int, jokers_per_deck: int) -> list[Card]:
        if jokers_per_deck:
            raise ValueError("Play Nine has no jokers.")
        return play_nine_deck() * decks

    def text(self, card: Card) -> str:
        self._check(card)
        return str(card)

    def label(self, card: Card) -> str:
        self._check(card)
        if card == HOLE_IN_ONE:
            return "Hole-in-One, minus 5"
        if card == 0:
            return "Mulligan, 0"
        return str(card)

    def name(self, card: Card) -> str:
        # Players call these cards by their number: "the -5", "the 12".
        return self.text(card)

    def tone(self, card: Card) -> str:
        # Bands of value, so a glance tells a good card from a bad one.
        if card < 0:
            return "ace"
        return "low" if card <= 4 else "mid" if card <= 8 else "high"


class StandardCards(CardKind):
    """Standard playing cards, rank then suit ("AS", "10D"), and the joker "JK"."""

    noun = "standard card"

    def is_card(self, card: object) -> bool:
        return is_standard_card(card)

    def deck(self, decks: int, jokers_per_deck: int) -> list[Card]:
        return list(standard_deck(decks, jokers_per_deck))

    def text(self, card: Card) -> str:
        self._check(card)
        if card == JOKER:
            return "Joker"
        return card[:-1] + _SUIT_SYMBOLS[card[-1]]

    def label(self, card: Card) -> str:
        self._check(card)
        if card == JOKER:
            return "Joker"
        rank, suit = card[:-1], card[-1]
        return f"{_RANK_NAMES.get(rank, rank)} of {_SUIT_NAMES[suit]}"

    def name(self, card: Card) -> str:
        # In words, as a player would say it: "the Queen of hearts".
        return self.label(card)

    def tone(self, card: Card) -> str:
        # The suit's colour; the joker has its own.
        if card == JOKER:
            return "joker"
        return "red" if card[-1] in "HD" else "black"


PLAY_NINE_CARDS = PlayNineCards()
STANDARD_CARDS = StandardCards()


# The bit lengths `random.Random` asks for when it picks below each bound.
_BITS = [bound.bit_length() for bound in range(1024)]


def shuffle(cards: list, rng: random.Random) -> None:
    """`rng.shuffle(cards)`, card for card and number for number, at half the cost.

    The same Fisher-Yates walk as `random.Random.shuffle`, with its `_randbelow`
    written in place: each swap index comes from `getrandbits` of the bound's bit
    length, drawn again while it is not below the bound. A test holds the two
    equal, so a hole replays from its seed exactly as before."""
    getrandbits = rng.getrandbits
    bits = _BITS
    for top in range(len(cards) - 1, 0, -1):
        bound = top + 1
        width = bits[bound] if bound < 1024 else bound.bit_length()
        other = getrandbits(width)
        while other >= bound:
            other = getrandbits(width)
        cards[top], cards[other] = cards[other], cards[top]
