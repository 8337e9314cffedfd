"""Plain helpers for play tests: pick a quick move, read a table's current hole, play a
hole out."""

from __future__ import annotations

from datetime import datetime

from games import engine, lobby, services
from games.engine import state_from_dict
from games.models import Hole, Table
from tests.factories import make_player


def current(table_id: int) -> tuple[Table, Hole, engine.HoleState]:
    table = Table.objects.get(pk=table_id)
    hole = table.holes.order_by("-number").first()
    return table, hole, state_from_dict(hole.state)


def quick_action(state: engine.HoleState, seat: int) -> dict:
    """A legal action that brings the hole to its end fast: turn cards up."""
    actions = engine.legal_actions(state, seat)
    by_type: dict[str, list[dict]] = {}
    for action in actions:
        by_type.setdefault(action["type"], []).append(action)
    if "tee_off" in by_type:
        return by_type["tee_off"][0]
    if "draw" in by_type:
        return next(a for a in by_type["draw"] if a["source"] == "pile")
    if "flip" in by_type:
        return by_type["flip"][0]
    face_down = [p for p, up in enumerate(state.face_up[seat]) if not up]
    for action in by_type.get("replace", []):
        if action["position"] in face_down:
            return action
    if "discard" in by_type:
        return by_type["discard"][0]
    return actions[0]


def next_actor(state: engine.HoleState) -> int:
    """The engine seat that acts next (the first not teed off during tee off)."""
    if state.phase == engine.TEE_OFF:
        return state.teed_off.index(False)
    return state.turn


def finish_hole(table_id: int, people: dict) -> engine.HoleState:
    """Play the table's current hole to its end by quick moves of its people (`people`:
    table seat position to player); the hole's last state."""
    for _ in range(500):
        table, hole, state = current(table_id)
        if hole.finished_at is not None:
            return state
        seat = next_actor(state)
        services.apply_move(
            table_id=table.pk,
            player=people[hole.seat_positions[seat]],
            action=quick_action(state, seat),
            version=table.version,
        )
    raise AssertionError("the hole did not end")


def act_until_finished(table: Table, now: datetime) -> None:
    """Let the bots and the turn timer play the match to its end as at `now` (later than
    every wait); a driver acting for the table meanwhile wins with its own version."""
    for _ in range(5000):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return
        try:
            services.act_for_table(table_id=table.pk, version=table.version, now=now)
        except services.GameError:
            continue
    raise AssertionError("the match did not finish")


def ana_and_ben() -> tuple[Table, object, object]:
    """Ana and Ben at a two-seat Play Nine table, its match started by Ana."""
    ana = make_player("ana", display_name="Ana")
    ben = make_player("ben", display_name="Ben")
    table = lobby.create_table(host=ana, variant="play-nine", seat_count=2, players=[ana, ben])
    return lobby.start_match(table=table, by=ana), ana, ben


def two_player_table(**extra) -> tuple[Table, object, object]:
    ana, ben = make_player("ana", display_name="Ana"), make_player("ben", display_name="Ben")
    table = lobby.create_table(
        host=ana, variant="play-nine", seat_count=2, players=[ana, ben], **extra
    )
    lobby.start_match(table=table, by=ana)
    return table, ana, ben
