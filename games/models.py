"""The records of play: tables (one match each), seats, holes, the move log, scorecards.

The database is the truth. A hole keeps its deal (seed or deck) and its ordered move
log, so it can be replayed move by move; `Hole.state` is only a snapshot that saves
replaying on every move.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.dispatch import Signal
from django.urls import reverse

from games.engine import VARIANTS, Variant, with_house_rules
from games.engine.match import HOLES


def variant_choices() -> list[tuple[str, str]]:
    """The engine's variants; a callable so migrations never freeze the list."""
    return [(key, variant.name) for key, variant in VARIANTS.items()]


def house_rule_choices() -> list[tuple[str, str]]:
    """Every house rule on offer, once each, labelled with the games that offer it.

    A game's name may hold a comma ("9-card Golf, three decks with jokers"), so the
    games are set apart with semicolons, not commas that would read as a repeat."""
    games = house_rule_games()
    names = {rule.key: rule.name for v in VARIANTS.values() for rule in v.house_rule_options}
    return [
        (key, f"{names[key].capitalize()} ({'; '.join(VARIANTS[g].name for g in games[key])})")
        for key in games
    ]


def house_rule_games() -> dict[str, list[str]]:
    """The keys of the games that offer each house rule, by the rule's key."""
    games: dict[str, list[str]] = {}
    for key, variant in VARIANTS.items():
        for rule in variant.house_rule_options:
            games.setdefault(rule.key, []).append(key)
    return games


def hole_name(number: int) -> str:
    """What every page calls hole `number`: "Hole 3", and "Playoff 1" for hole 10."""
    return f"Playoff {number - HOLES}" if number > HOLES else f"Hole {number}"


def hole_heading(number: int) -> str:
    """Hole `number` as a scorecard's column heads it: "3", and "Playoff 1" for hole 10."""
    return hole_name(number) if number > HOLES else str(number)


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)


def new_deal_seed() -> int:
    return secrets.randbits(62)


#: Sent once a live match's end is written, with `table`: what listens (a league's
#: ratings) hears it here, as the write itself sends no model signal.
match_finished = Signal()
#: Sent inside the write's transaction once a finished match's cards were written from
#: paper or corrected, with `table`: what keeps figures from them (a league's standings
#: and ratings) follows in the same transaction.
results_recorded = Signal()
#: Sent once the end of a hole in play is written, with `hole`, `seats` (the table's
#: seats as play reads them, by position) and `table`: its reviews can be worked out
#: from then on, and a league's night board shows its strokes.
hole_finished = Signal()

#: Sent once a turn-based table's turn passes to a person, after the write commits, with
#: `table`, `position` (the seat now to move), `player_id` and `deadline` (when the
#: timer's bot moves for them): once per turn and person, so that what tells players
#: ("your turn") listens here, and games knows nothing of mail or push.
turn_passed = Signal()

#: Sent by each sweep of the turn-based deadlines (`deadlines.sweep`, the
#: `play_deadlines` command), with `now`, once the overdue moves are played: a room
#: that keeps deadlines of its own over tables (an event's rounds) keeps them then.
deadlines_swept = Signal()

#: Sent with `table` and `user` to ask whether `user` runs the table besides its host
#: (live play knows no clubs): a receiver answers True for one who does, as a league
#: does for the organisers of its nights' tables.
runs_table = Signal()

#: Sent as a finished hole's replay is shown, with `table`, `number` and `user`: each
#: receiver answers with the links it has for that hole, as (text, url) pairs. A league
#: points there to its night's deal comparison; games knows nothing of leagues.
replay_links = Signal()


class PlaysByRules:
    """A model with a `variant` and its `house_rules`: a table, or a league whose
    nights' tables all play them."""

    @property
    def rules(self) -> Variant:
        """The engine's variant played: the game and its house rules."""
        # A frame asks for a table's rules a dozen times: kept while the fields hold.
        key = (self.variant, *self.house_rules)
        kept = self.__dict__.get("_rules")
        if kept is None or kept[0] != key:
            kept = self.__dict__["_rules"] = (key, with_house_rules(self.variant, self.house_rules))
        return kept[1]

    @property
    def rules_name(self) -> str:
        """The game's name with its house rules, if any: "6-card Golf (last turns)"."""
        return self.rules.full_name


class Table(PlaysByRules, models.Model):
    """A table plays one match: a variant, its seats, nine holes (and playoff holes)."""

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

    class Kind(models.TextChoices):
        LIVE = "live", "Played live"
        PAPER = "hand", "Played with a physical deck"

    class Timer(models.IntegerChoices):
        OFF = 0, "Off"
        S30 = 30, "30 seconds"
        S60 = 60, "60 seconds"
        M2 = 120, "2 minutes"

    class MoveTime(models.IntegerChoices):
        """A table's pace: live (played in one sitting) or turn-based, with a time per move."""

        LIVE = 0, "Live: played in one sitting"
        H1 = 3600, "Turn-based: 1 hour a move"
        H12 = 43200, "Turn-based: 12 hours a move"
        D1 = 86400, "Turn-based: 1 day a move"
        D2 = 172800, "Turn-based: 2 days a move"
        D3 = 259200, "Turn-based: 3 days a move"

    variant = models.CharField(max_length=20, choices=variant_choices, default="play-nine")
    house_rules = models.JSONField(
        default=list,
        blank=True,
        help_text="The keys of the house rules the match is played with (none: the rules as "
        "written).",
    )
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.LIVE)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="hosted_tables",
    )
    seat_count = models.PositiveSmallIntegerField(default=4)
    is_public = models.BooleanField(default=True)
    seats_assigned = models.BooleanField(
        default=False,
        help_text="The seats are the organiser's to assign (a league night's table): "
        "no one takes or gives up a seat at the table itself.",
    )
    stand_in_level = models.CharField(
        max_length=10,
        blank=True,
        help_text="The bot level that plays a seat its player leaves mid-match; "
        "empty for the usual stand-in.",
    )
    invite_code = models.CharField(max_length=20, default=new_invite_code, unique=True)
    turn_timer = models.PositiveSmallIntegerField(choices=Timer.choices, default=Timer.OFF)
    chat_on = models.BooleanField(
        default=True, help_text="Whether the people at the table may chat; the host's to change."
    )
    first_dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    deal_seed = models.BigIntegerField(
        default=new_deal_seed,
        help_text="Every deal of the match derives from it: tables sharing it share deals.",
    )
    version = models.PositiveIntegerField(
        default=0, help_text="Grows with every change; clients send the version they saw."
    )
    turn_started_at = models.DateTimeField(
        null=True, blank=True, help_text="When the current wait began (bots and turn timer)."
    )
    move_time = models.PositiveIntegerField(
        choices=MoveTime.choices,
        default=MoveTime.LIVE,
        help_text="Seconds a player has for a move at a turn-based table; 0: a live table.",
    )
    playing_from = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="A turn-based table's playing hours (the hour they start, in each player's "
        "time zone): no deadline falls outside them. Empty: any hour.",
    )
    playing_until = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The hour a turn-based table's playing hours end."
    )
    away_days = models.PositiveSmallIntegerField(
        default=0, help_text="Days of break ('away until') each player may take in the match."
    )
    clocks = models.JSONField(
        default=dict,
        blank=True,
        help_text="A turn-based table's clock of each seat, by position: its player's time "
        "zone, away until when, days of break taken.",
    )
    turn_deadline = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When a turn-based table's current move is played by the timer's bot.",
    )
    rematch_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematches"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "is_public"]),
            # The deadlines' sweep reads the few turn-based tables due soon.
            models.Index(
                fields=["turn_deadline"],
                name="table_turn_deadline",
                condition=models.Q(turn_deadline__isnull=False),
            ),
        ]
        constraints = [
            # One rematch a table: two players asking at once get the same new table.
            models.UniqueConstraint(fields=["rematch_of"], name="unique_rematch"),
        ]

    def __str__(self) -> str:
        return f"Table {self.pk} ({self.rules_name})"

    def get_absolute_url(self) -> str:
        return reverse("games:table", args=[self.pk])

    @property
    def turn_based(self) -> bool:
        """Played over days, a deadline a move, rather than in one sitting."""
        return self.move_time > 0

    @property
    def casual_house_rules(self) -> bool:
        """A casual match (not a league night's) played with house rules: a player's
        lists mark it, as its strokes do not compare with the rules as written."""
        return bool(self.house_rules) and not self.seats_assigned

    def hole_seed(self, number: int) -> int:
        """The seed of hole `number`: the same on every table with this deal seed."""
        digest = hashlib.sha256(f"{self.deal_seed}:{number}".encode()).digest()
        return int.from_bytes(digest[:8], "big") >> 2


class ChatMessage(models.Model):
    """A line of a table's chat. Kept, so that a reload shows the recent ones; a line the
    host hid stays stored but is shown to no one."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    text = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    hidden = models.BooleanField(default=False)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["table", "author", "created_at"])]

    def __str__(self) -> str:
        return f"{self.table}: {self.text[:40]}"


#: Bots' names, by seat position: short enough for a scorecard's row, in golf's own words.
BOT_NAMES = ("Birdie", "Bogey", "Eagle", "Albatross", "Mulligan", "Caddie", "Divot", "Bunker")


class Seat(models.Model):
    """A place at a table: a signed-in player or a bot, numbered clockwise from 0."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
    )
    bot_level = models.CharField(max_length=10, blank=True)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="unique_seat_position"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.position}: {self.name}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def name(self) -> str:
        if self.player_id:
            return self.player.name
        if self.bot_level:
            # The level is shown beside the name, as a chip.
            return BOT_NAMES[self.position % len(BOT_NAMES)]
        return "Empty seat"


class Hole(models.Model):
    """One hole of a table's match: its deal, its state snapshot and its scores."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="holes")
    number = models.PositiveSmallIntegerField(help_text="1 to 9; 10 and up are playoff holes.")
    dealer = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField(null=True, blank=True)
    deck = models.JSONField(null=True, blank=True, help_text="The whole deck, top card first.")
    # Seat positions dealt into this hole, in engine seat order (playoffs may deal fewer).
    seat_positions = models.JSONField(default=list)
    state = models.JSONField(null=True, blank=True, help_text="Snapshot after the last move.")
    version = models.PositiveIntegerField(default=0)
    scores = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_hole_number"),
        ]

    def __str__(self) -> str:
        return f"{self.table}, {self.name.lower()}"

    @property
    def name(self) -> str:
        """What every page calls this hole (`hole_name`)."""
        return hole_name(self.number)

    @property
    def heading(self) -> str:
        """This hole as a scorecard's column heads it (`hole_heading`)."""
        return hole_heading(self.number)

    @property
    def is_playoff(self) -> bool:
        return self.number > HOLES


class Move(models.Model):
    """One action in a hole's append-only move log."""

    hole = models.ForeignKey(Hole, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    by_bot = models.BooleanField(default=False)
    summary = models.CharField(
        max_length=200, blank=True, help_text="What everyone saw, e.g. 'took the 3 ...'."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hole", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["hole", "seq"], name="unique_move_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.hole} move {self.seq}"


class Scorecard(models.Model):
    """One player's card for one match: strokes per hole, total and place."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="scorecards")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="scorecards",
    )
    name = models.CharField(max_length=60, help_text="The name on the card (a bot's too).")
    total = models.IntegerField(default=0, help_text="Strokes over the nine regulation holes.")
    place = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="unique_card_position"),
        ]

    def __str__(self) -> str:
        return f"{self.name}, {self.table}"


class ScorecardHole(models.Model):
    """Strokes for one hole on a scorecard (numbers over 9 are playoff holes)."""

    scorecard = models.ForeignKey(Scorecard, on_delete=models.CASCADE, related_name="holes")
    number = models.PositiveSmallIntegerField()
    strokes = models.IntegerField()

    class Meta:
        ordering = ["scorecard", "number"]
        constraints = [
            models.UniqueConstraint(fields=["scorecard", "number"], name="unique_card_hole"),
        ]

    def __str__(self) -> str:
        return f"{self.scorecard}, hole {self.number}: {self.strokes}"


class HoleReview(models.Model):
    """What each decision of one seat cost in a finished hole, worked out once and kept.

    Judging a hole's decisions takes seconds of playouts, so it is stored by hole and
    seat rather than redone for every look.
    """

    hole = models.ForeignKey(Hole, on_delete=models.CASCADE, related_name="reviews")
    position = models.PositiveSmallIntegerField(help_text="The table seat reviewed.")
    decisions = models.JSONField(
        default=list,
        help_text="Per decision: version, played and best action with their expected strokes.",
    )
    given_away = models.FloatField(help_text="Strokes given away over the hole's decisions.")
    samples = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hole", "position"]
        constraints = [
            models.UniqueConstraint(fields=["hole", "position"], name="unique_hole_review"),
        ]

    def __str__(self) -> str:
        return f"Review of seat {self.position}, {self.hole}"
