"""The move log's words: a short phrase for each action, naming only public cards."""

from __future__ import annotations

from .hole import OVER, Action, HoleState


def _a(name: str) -> str:
    spoken_vowel = name[0] in "AEIOU8" or name.startswith("11")
    return ("an " if spoken_vowel else "a ") + name


def _list(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def describe_action(before: HoleState, seat: int, action: Action, after: HoleState) -> str:
    """What `seat` did, without the subject: "drew from the draw pile", "knocked".

    Names a card only once every player has seen it: the replaced card after it
    lands face up on the discard pile, never a card drawn from the pile still in hand.
    """
    kind = action["type"]
    name = before.rules.card_name
    text: str
    if kind == "tee_off":
        cards = [f"the {name(after.layouts[seat][p])}" for p in sorted(action["positions"])]
        text = f"teed off, turning up {_list(cards)}"
    elif kind == "draw" and action["source"] == "pile":
        text = "drew from the draw pile"
    elif kind == "draw":
        text = f"took the {name(after.held)} from the discard pile"
    elif kind == "replace":
        position = action["position"]
        old = before.layouts[seat][position]
        new = name(before.held)
        if before.face_up[seat][position]:
            text = f"replaced their {name(old)} with the {new}"
        else:
            text = f"replaced a face-down card ({_a(name(old))}) with the {new}"
    elif kind == "flip":
        turned = after.layouts[seat][action["position"]]
        text = f"discarded the {name(before.held)} and turned up {_a(name(turned))}"
    elif kind == "discard":
        skipped = " and skipped" if before.rules.can_skip else ""
        text = f"discarded the {name(before.held)}{skipped}"
    elif kind == "knock":
        text = "knocked"
    elif kind == "swap":
        text = "swapped two cards"
    else:
        raise ValueError(f"Unknown action type {kind!r}.")
    went_out = after.finisher == seat and before.finisher is None and kind != "knock"
    if went_out or (before.rules.ends_at_once and after.phase == OVER):
        text += ", going out"
    return text


def describe_turn(before: HoleState, seat: int, action: Action, after: HoleState) -> str | None:
    """The whole turn as one phrase, when `action` uses a card `seat` drew; else None.

    "took the 3 from the discard pile and replaced their 11", "drew a 5 and replaced
    their 11 with it": the drawn card is named only now that it lies face up.
    """
    if before.holding != seat or action["type"] not in {"replace", "flip", "discard"}:
        return None
    name = before.rules.card_name
    held = name(before.held)
    kind = action["type"]
    if kind == "replace":
        position = action["position"]
        old = name(before.layouts[seat][position])
        target = (
            f"their {old}" if before.face_up[seat][position] else f"a face-down card ({_a(old)})"
        )
        if before.held_from == "discard":
            text = f"took the {held} from the discard pile and replaced {target}"
        else:
            text = f"drew {_a(held)} and replaced {target} with it"
    elif kind == "flip":
        turned = name(after.layouts[seat][action["position"]])
        text = f"drew {_a(held)}, discarded it and turned up {_a(turned)}"
    else:
        skipped = " (a skip)" if before.rules.can_skip else ""
        text = f"drew {_a(held)} and discarded it{skipped}"
    went_out = after.finisher == seat and before.finisher is None
    if went_out or (before.rules.ends_at_once and after.phase == OVER):
        text += ", going out"
    return text
