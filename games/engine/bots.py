"""Bots: a random player, a greedy heuristic player, an expert that looks ahead and a
master that searches the unseen cards on a learned judgement.

A bot keeps nothing between calls: `choose_action` reads `view(state, seat)` (and
the legal actions, which follow from it) and never a face-down card or the draw
pile's order. The unseen cards are reckoned as a pool (the deck less every card
in sight), and the expert looks one blind draw ahead by averaging over that pool,
so even its look-ahead is built on what the seat can know. The master judges the
layout a turn leaves by its game's weights, learned from played-out holes (`train.py`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from .cards import Card
from .hole import (
    FINAL_TURNS,
    PLAY,
    TEE_OFF,
    Action,
    HoleState,
    holding_actions,
    legal_actions,
    view,
)
from .variants import RULEBOOK, ByVariant, Variant

BOT_LEVELS = ("random", "greedy", "expert", "master")


@dataclass(frozen=True)
class Style:
    """A greedy player's judgement, in strokes."""

    #: What the discard top must save to be taken rather than a blind draw.
    take_gain: float = 2.0
    #: How much a gift to the next player counts against a discard (0: not minded).
    feed_weight: float = 0.35
    #: What the next player expects from a blind draw anyway.
    feed_allowance: float = 2.0
    #: Going out (with last turns to come) is fine when at most this far behind.
    out_margin: float = 1.0
    #: Knock with an estimate this low whatever the others show ...
    knock_at: float = 2.0
    #: ... or when this far ahead of everyone with at most 8 strokes showing.
    knock_lead: float = 3.0


GREEDY = Style()
#: For inner look-ahead: skips minding the next player, the slow part.
QUICK = Style(feed_weight=0.0)
FEED_CANDIDATES = 4  # how many of the best options are checked for gifts
LATE_TURNS = 30  # per player: after this many actions each, anyone goes out or knocks


def choose_action(state: HoleState, seat: int, level: str, rng: random.Random) -> Action:
    """The action the bot of `level` takes for `seat` now, from what that seat may know."""
    if level not in BOT_LEVELS:
        raise ValueError(f"Unknown bot level {level!r}; choose from {', '.join(BOT_LEVELS)}.")
    legal = legal_actions(state, seat)
    if not legal:
        raise ValueError("That seat has no move to make now.")
    if level == "random" or len(legal) == 1:
        return rng.choice(legal) if level == "random" else legal[0]
    seen = view(state, seat)
    scene = Scene.from_view(seen)
    if level == "greedy" or seen["phase"] == TEE_OFF:
        return greedy_action(scene, rng)
    if level == "master":
        return master_action(scene, rng)
    return _expert_action(scene, rng)


# --- what a seat knows ------------------------------------------------------------------


@dataclass
class Pool:
    """The unseen cards as a seat reckons them: count per rank, their number and mean value."""

    counts: dict[Any, int]
    size: int
    mean: float
    #: The estimator built on this pool, kept so a decision's look-ahead reuses its sums.
    estimator: Estimator | None = field(default=None, repr=False, compare=False)

    @classmethod
    def unseen(cls, rules: Variant, players: int, visible: list[Card]) -> Pool:
        """Everything in the deck that is not `visible`: face-down cards and the draw pile."""
        remaining = Counter(rules.deck(players))
        remaining.subtract(visible)
        counts: Counter = Counter()
        total = 0
        for card, count in remaining.items():
            if count > 0:
                counts[rules.ranks[card]] += count
                total += rules.values[card] * count
        size = sum(counts.values())
        return cls(dict(counts), size, total / size if size else 0.0)


@dataclass
class Scene:
    """The public facts a decision needs, seen from one seat (face-down cards are None)."""

    rules: Variant
    players: int
    me: int
    phase: str
    version: int
    finisher: int | None
    layouts: list[list[Card | None]]
    discard_top: Card | None
    held: Card | None
    held_from: str | None
    i_hold: bool
    may_swap: bool
    #: Whether knocking is open now (the rules may close the first round to it).
    may_knock: bool
    teed_off: bool
    pool: Pool

    @classmethod
    def from_view(cls, seen: dict[str, Any], pool: Pool | None = None) -> Scene:
        """The scene of the seat whose view this is."""
        rules = RULEBOOK[seen["variant"]]
        me = seen["seat"]
        if pool is None:
            visible = [card for layout in seen["layouts"] for card in layout if card is not None]
            visible.extend(seen["discard_pile"])
            if seen["held"] is not None:
                visible.append(seen["held"])
            pool = Pool.unseen(rules, seen["players"], visible)
        return cls(
            rules=rules,
            players=seen["players"],
            me=me,
            phase=seen["phase"],
            version=seen["version"],
            finisher=seen["finisher"],
            layouts=seen["layouts"],
            discard_top=seen["discard_top"],
            held=seen["held"],
            held_from=seen["held_from"],
            i_hold=seen["holding"] == me,
            may_swap=rules.can_swap and seen["teed_off"][me] and not seen["drawn"][me],
            may_knock=rules.may_knock(seen["drawn"]),
            teed_off=seen["teed_off"][me],
            pool=pool,
        )


class Estimator:
    """Expected strokes of a layout with face-down cards, under one seat's pool.

    Scores with the variant's own scoring: its `score_ranks` with stand-ins for the
    face-down cards, or, where two-card columns score on their own, column by column
    with the scoring's `pair_value` and `pairs_bonus`, which lets a card's worth at
    each position be reckoned without scoring the whole layout again.
    """

    def __init__(self, rules: Variant, pool: Pool) -> None:
        self.rules = rules
        self.pool = pool
        self.columns = [(column, column + rules.cols) for column in range(rules.cols)]
        scoring = rules.scoring
        #: Two-card columns that score on their own: reckoned column by column.
        self.fast = rules.rows == 2 and scoring.by_column
        if self.fast:
            self._pair_value = scoring.pair_value
            self._bonus = scoring.pairs_bonus
            self.bonus = scoring.has_bonus
        self._half: dict[Card, float] = {}

    @classmethod
    def of(cls, scene: Scene) -> Estimator:
        """The estimator of a scene's pool, made once per pool."""
        estimator = scene.pool.estimator
        if estimator is None or estimator.rules is not scene.rules:
            estimator = scene.pool.estimator = cls(scene.rules, scene.pool)
        return estimator

    def _with_one(self, card: Card) -> float:
        # A known card over a face-down one: it may still turn out to be its pair.
        cached = self._half.get(card)
        if cached is None:
            rules, pool = self.rules, self.pool
            rank, value = rules.ranks[card], rules.values[card]
            count = pool.counts.get(rank, 0)
            if pool.size == 0:
                cached = value + pool.mean
            else:
                chance = count / pool.size
                rest = pool.size - count
                other = (pool.mean * pool.size - value * count) / rest if rest else pool.mean
                cached = chance * self._pair_value(rank) + (1 - chance) * (value + other)
            self._half[card] = cached
        return cached

    def _column(self, a: Card | None, b: Card | None) -> tuple[float, Any]:
        """A two-card column's expectation and the rank it pairs on (None if no pair)."""
        if a is None:
            return (2 * self.pool.mean if b is None else self._with_one(b)), None
        if b is None:
            return self._with_one(a), None
        ranks = self.rules.ranks
        if ranks[a] == ranks[b]:
            return self._pair_value(ranks[a]), ranks[a]
        values = self.rules.values
        return values[a] + values[b], None

    def estimate(self, layout: list[Card | None]) -> float:
        """The layout's expected score, face-down cards counted at the pool's mean."""
        rules = self.rules
        if not self.fast:
            ranks = [rules.ranks[c] if c is not None else ("?", i) for i, c in enumerate(layout)]
            mean = self.pool.mean
            values = [rules.values[c] if c is not None else mean for c in layout]
            return rules.score_ranks(ranks, values)
        total = 0.0
        paired = []
        for top, bottom in self.columns:
            value, rank = self._column(layout[top], layout[bottom])
            total += value
            if rank is not None:
                paired.append(rank)
        if self.bonus:
            total += self._bonus(paired)
        return total

    def replacing(self, layout: list[Card | None], card: Card) -> list[float]:
        """The estimate of `layout` with `card` put at each position in turn."""
        if not self.fast:
            result = []
            for position in range(len(layout)):
                trial = list(layout)
                trial[position] = card
                result.append(self.estimate(trial))
            return result
        cols = self.rules.cols
        parts = [self._column(layout[top], layout[bottom]) for top, bottom in self.columns]
        base = sum(value for value, _ in parts)
        paired = [rank for _, rank in parts if rank is not None]
        result = [0.0] * len(layout)
        for position in range(len(layout)):
            column = position % cols
            partner = layout[column + cols] if position < cols else layout[column]
            value, rank = self._column(card, partner)
            old_value, old_rank = parts[column]
            total = base - old_value + value
            if self.bonus and (paired or rank is not None):
                trial = list(paired)
                if old_rank is not None:
                    trial.remove(old_rank)
                if rank is not None:
                    trial.append(rank)
                total += self._bonus(trial)
            result[position] = total
        return result


# --- greedy -------------------------------------------------------------------------------


def greedy_action(scene: Scene, rng: random.Random, style: Style = GREEDY) -> Action:
    """The greedy policy: the move with the best estimate after it, with a few good habits.

    It keeps low cards, builds pairs, takes the discard only when it saves enough,
    flips when holding nothing useful, skips rather than reveal its last card when
    that would go out while behind, and weighs what its discard
    would give the next player.
    """
    rules = scene.rules
    me = scene.me
    if scene.phase == TEE_OFF:
        if not scene.teed_off:
            return _greedy_tee_off(rules, rng)
        return _best_swap(scene, Estimator.of(scene), force=True)
    estimator = Estimator.of(scene)
    mine = scene.layouts[me]
    now = estimator.estimate(mine)
    if not scene.i_hold:
        if scene.may_swap:
            swap = _best_swap(scene, estimator, force=False)
            if swap is not None:
                return swap
        if scene.may_knock and scene.phase == PLAY and _should_knock(scene, estimator, now, style):
            return {"type": "knock"}
        top = scene.discard_top
        if top is not None:
            # Judged as it will be used once taken: judged otherwise (say, without minding
            # the next player), a taken card can end up replacing a better one, and bots
            # passing two cards round the table would never end the hole.
            best, _ = _best_use(scene, estimator, now, top, "discard", style)
            if now - best >= style.take_gain:
                return {"type": "draw", "source": "discard"}
        return {"type": "draw", "source": "pile"}
    _, action = _best_use(scene, estimator, now, scene.held, scene.held_from, style)
    return action


def _greedy_tee_off(rules: Variant, rng: random.Random) -> Action:
    # Cards in different columns tell the most about which pairs are possible.
    columns = rng.sample(range(rules.cols), rules.opening_flips)
    positions = sorted(column + rules.cols * rng.randrange(rules.rows) for column in columns)
    return {"type": "tee_off", "positions": positions}


def _best_swap(scene: Scene, estimator: Estimator, *, force: bool) -> Action | None:
    mine = scene.layouts[scene.me]
    best = estimator.estimate(mine)
    choice = (0, 1) if force else None
    for first in range(len(mine)):
        for second in range(first + 1, len(mine)):
            if mine[first] is None and mine[second] is None:
                continue
            trial = list(mine)
            trial[first], trial[second] = trial[second], trial[first]
            score = estimator.estimate(trial)
            if score < best - 1e-9:
                best, choice = score, (first, second)
    return None if choice is None else {"type": "swap", "positions": list(choice)}


def _min_opponent(scene: Scene, estimator: Estimator) -> float:
    return min(
        estimator.estimate(layout) for seat, layout in enumerate(scene.layouts) if seat != scene.me
    )


def _late(scene: Scene) -> bool:
    return scene.version > LATE_TURNS * scene.players


def _should_knock(scene: Scene, estimator: Estimator, now: float, style: Style) -> bool:
    if now <= style.knock_at or _late(scene):
        return True
    return now <= 8 and now <= _min_opponent(scene, estimator) - style.knock_lead


Judged = tuple[float, int, Action, Card | None]  # value, order, action, card discarded


def _best_use(
    scene: Scene, estimator: Estimator, now: float, card: Card, source: str | None, style: Style
) -> tuple[float, Action]:
    """The best thing to do holding `card`, and its judged score (lower is better)."""
    value, _, action, _ = _options(scene, estimator, now, card, source, style)[0]
    return value, action


def _options(
    scene: Scene, estimator: Estimator, now: float, card: Card, source: str | None, style: Style
) -> list[Judged]:
    """Every use of `card`, best first, each with its judged score."""
    rules = scene.rules
    mine = scene.layouts[scene.me]
    hidden = mine.count(None)
    options: list[tuple[float, bool, Card | None, Action]] = []
    for position, score in enumerate(estimator.replacing(mine, card)):
        out = hidden == 0 or (hidden == 1 and mine[position] is None)
        options.append((score, out, mine[position], {"type": "replace", "position": position}))
    if source == "pile":
        if rules.can_flip:
            for position, known in enumerate(mine):
                if known is None:
                    # Turning a card up is worth its expectation; it also brings the end nearer.
                    action = {"type": "flip", "position": position}
                    options.append((now, hidden == 1, card, action))
        if rules.may_discard(hidden):
            options.append((now, hidden == 0, card, {"type": "discard"}))
    going_out_matters = scene.phase == PLAY and (rules.ends_at_once or rules.last_turns_after_out)
    min_opponent: float | None = None
    judged: list[Judged] = []
    for index, (score, out, discarded, action) in enumerate(options):
        value = score
        if going_out_matters and out:
            if min_opponent is None:
                min_opponent = _min_opponent(scene, estimator)
            margin = 0.0 if rules.ends_at_once else style.out_margin
            if score <= min_opponent + margin or _late(scene):
                value -= 0.1  # going out while ahead ends the hole on good terms
            else:
                value += 100.0  # behind: keep playing rather than end the hole
        judged.append((value, index, action, discarded))
    judged.sort(key=lambda item: (item[0], item[1]))
    if style.feed_weight:
        judged = _mind_the_next_player(scene, estimator, judged, style)
    return judged


def _mind_the_next_player(
    scene: Scene,
    estimator: Estimator,
    judged: list[Judged],
    style: Style,
) -> list[Judged]:
    following = (scene.me + 1) % scene.players
    if scene.phase == FINAL_TURNS and following == scene.finisher:
        return judged
    theirs = scene.layouts[following]
    before = estimator.estimate(theirs)
    gifts: dict[Card, float] = {}
    rescored = []
    for value, index, action, discarded in judged[:FEED_CANDIDATES]:
        if discarded is not None:
            gift = gifts.get(discarded)
            if gift is None:
                best = min(before, *estimator.replacing(theirs, discarded))
                gift = gifts[discarded] = before - best
            value += style.feed_weight * max(0.0, gift - style.feed_allowance)
        rescored.append((value, index, action, discarded))
    rescored.sort(key=lambda item: (item[0], item[1]))
    return rescored + judged[FEED_CANDIDATES:]


# --- expert -------------------------------------------------------------------------------

#: How much the expert counts the expected saving of its next draw from the pile.
EXPERT_FUTURE = 1.0
#: How many of greedy's best options the expert looks beyond.
EXPERT_CANDIDATES = 5


def _representatives(rules: Variant) -> dict[Any, Card]:
    # One card per rank: all cards of a rank score alike and pair alike.
    cards: dict[Any, Card] = {}
    for card in rules.values:
        cards.setdefault(rules.ranks[card], card)
    return cards


_REPRESENTATIVES = ByVariant(_representatives)


def _expert_action(scene: Scene, rng: random.Random) -> Action:
    """Greedy's judgement, looking one draw further ahead over the unseen cards.

    Drawing: compare the discard top with the expected best use of an unseen card.
    Holding: among greedy's best few options, prefer the layout whose next blind
    draw promises the most, averaged over every card still unseen.
    """
    greedy = greedy_action(scene, rng)
    if scene.phase == TEE_OFF or greedy["type"] in ("swap", "knock"):
        return greedy
    estimator = Estimator.of(scene)
    mine = scene.layouts[scene.me]
    now = estimator.estimate(mine)
    if not scene.i_hold:
        if scene.discard_top is None:
            return greedy
        take, _ = _best_use(scene, estimator, now, scene.discard_top, "discard", GREEDY)
        blind = _expected(
            scene, lambda card: _best_use(scene, estimator, now, card, "pile", QUICK)[0]
        )
        return {"type": "draw", "source": "discard" if take < blind else "pile"}
    judged = _options(scene, estimator, now, scene.held, scene.held_from, GREEDY)
    if scene.phase == FINAL_TURNS:
        return judged[0][2]
    best_value, best_action = None, greedy
    for value, _, action, _ in judged[:EXPERT_CANDIDATES]:
        if value >= 50:  # refused options (going out while behind) stay refused
            continue
        after = mine
        if action["type"] == "replace":
            after = list(mine)
            after[action["position"]] = scene.held
        future = 0.0
        if None in after and not (action["type"] == "flip" and after.count(None) == 1):
            future = _next_draw_saving(scene, estimator, after)
        total = value - EXPERT_FUTURE * future
        if best_value is None or total < best_value - 1e-9:
            best_value, best_action = total, action
    return best_action


def _expected(scene: Scene, judge: Callable[[Card], float]) -> float:
    """The mean of `judge(card)` over the unseen cards."""
    pool = scene.pool
    if pool.size == 0:
        return 0.0
    cards = _REPRESENTATIVES[scene.rules.key]
    return sum(judge(cards[rank]) * count for rank, count in pool.counts.items()) / pool.size


def _next_draw_saving(scene: Scene, estimator: Estimator, after: list[Card | None]) -> float:
    """What my next blind draw is expected to save on the layout `after`."""
    layouts = list(scene.layouts)
    layouts[scene.me] = after
    later = replace(scene, layouts=layouts, i_hold=True, held_from="pile")
    base = estimator.estimate(after)

    def saving(card: Card) -> float:
        value, _ = _best_use(later, estimator, base, card, "pile", QUICK)
        return max(0.0, base - value)

    return _expected(later, saving)


# --- master -------------------------------------------------------------------------------

#: The features of the layout a turn leaves, in the order of a game's weights. The first
#: nine come in threes, one per stage of the hole (the fewest face-down cards an opponent
#: has: at most one, two, three or more), so what a card or a draw is worth depends on how
#: many turns are likely left.
MASTER_FEATURES = (
    "estimate, 1 left", "estimate, 2 left", "estimate, 3+ left",
    "next draw's saving, 1 left", "next draw's saving, 2 left", "next draw's saving, 3+ left",
    "face down, 1 left", "face down, 2 left", "face down, 3+ left",
    "going out", "going out x lead", "gift to the next player",
)  # fmt: skip


def master_action(scene: Scene, rng: random.Random) -> Action:
    """Expectimax over the unseen cards on a learned judgement of the layout left.

    Holding a card, the master takes the use it judges best. Before drawing, it
    compares the best use of the discard top with the mean, over every card still
    unseen, of the best use of a blind draw. A game without weights plays as expert.
    """
    weights = scene.rules.master_weights
    if scene.phase == TEE_OFF:
        return greedy_action(scene, rng)
    if weights is None:
        return _expert_action(scene, rng)
    judge = Judge(scene, weights)
    if scene.i_hold:
        return judge.best(scene.held, scene.held_from)[1]
    greedy = greedy_action(scene, rng)  # rearranging and knocking are greedy's calls
    if greedy["type"] in ("swap", "knock") or scene.discard_top is None:
        return greedy
    take, _ = judge.best(scene.discard_top, "discard")
    blind = _expected(scene, lambda card: judge.best(card, "pile")[0])
    return {"type": "draw", "source": "discard" if take < blind else "pile"}


class Judge:
    """The master's judgement of each use of a card, from one seat's scene."""

    def __init__(self, scene: Scene, weights: tuple[float, ...]) -> None:
        self.scene = scene
        self.weights = weights
        self.estimator = estimator = Estimator.of(scene)
        me = scene.me
        others = [seat for seat in range(scene.players) if seat != me]
        fewest = min(scene.layouts[seat].count(None) for seat in others)
        self.stage = 0 if fewest <= 1 else 1 if fewest == 2 else 2
        self.best_other = min(estimator.estimate(scene.layouts[seat]) for seat in others)
        following = (me + 1) % scene.players
        ends_first = scene.phase == FINAL_TURNS and following == scene.finisher
        self.theirs = None if ends_first else scene.layouts[following]
        self._gifts: dict[Card, float] = {}

    def best(self, card: Card, source: str | None) -> tuple[float, Action]:
        """The best use of `card` (drawn from `source`) and its judged outcome."""
        face_up = tuple(known is not None for known in self.scene.layouts[self.scene.me])
        uses = holding_actions(self.scene.rules.key, source == "pile", face_up)
        value, use = min(((self.outcome(card, use), use) for use in uses), key=lambda item: item[0])
        return value, dict(use)  # the engine's own, shared: the caller gets a copy

    def outcome(self, card: Card, action: Action) -> float:
        """What the seat is judged to score, less the others' mean, after this use."""
        return sum(w * x for w, x in zip(self.weights, self.features(card, action), strict=True))

    def features(self, card: Card, action: Action) -> list[float]:
        """The `MASTER_FEATURES` of the layout left by using `card` so."""
        scene, estimator = self.scene, self.estimator
        mine = scene.layouts[scene.me]
        after = mine
        discarded: Card | None = card
        if action["type"] == "replace":
            after = list(mine)
            after[action["position"]] = card
            discarded = mine[action["position"]]
        # A flipped card stays unknown here: the layout is reckoned at its expectation.
        down = after.count(None) - (action["type"] == "flip")
        estimate = estimator.estimate(after)
        final = scene.phase == FINAL_TURNS
        saving = 0.0
        if down and not final:
            saving = _next_draw_saving(scene, estimator, after)
        out = 1.0 if down == 0 and not final else 0.0
        values = [0.0] * len(MASTER_FEATURES)
        values[self.stage] = estimate
        values[3 + self.stage] = saving
        values[6 + self.stage] = float(down)
        values[9] = out
        values[10] = out * (estimate - self.best_other)
        values[11] = self._gift(discarded)
        return values

    def _gift(self, card: Card | None) -> float:
        # What the card discarded would save the next player (nothing for an unseen card).
        if card is None or self.theirs is None:
            return 0.0
        gift = self._gifts.get(card)
        if gift is None:
            before = self.estimator.estimate(self.theirs)
            best = min(before, *self.estimator.replacing(self.theirs, card))
            gift = self._gifts[card] = before - best
        return gift
