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
from collections.abc import Callable
from dataclasses import dataclass, replace
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
from .scene import Estimator, Scene
from .variants import ByVariant, Variant

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
