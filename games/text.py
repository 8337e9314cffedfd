"""The one rule for every name and free text that other people see.

Names (display names, guests', clubs', leagues', seasons') and free text (chat lines,
a night's venue, a correction's reason) hold only characters a reader sees: no
control characters (tabs, line feeds, ESC), no invisible ones (zero-width spaces,
byte-order marks, soft hyphens, other format characters), no marks that turn the
direction of the text around it (right-to-left overrides and isolates), no line or
paragraph separators, private-use or unassigned code points. A zero-width joiner
or non-joiner stays allowed between two visible characters: emoji and some scripts
are written with them. Free text of several lines (a reason) may break its lines.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError

#: The sentence every refusal gives.
HIDDEN_CHARACTERS = (
    "Use only characters that can be seen: no tabs, line breaks, control characters, "
    "invisible spaces or marks that change the text's direction."
)

#: Categories of characters no one sees: control, format, surrogate, private use,
#: unassigned, line and paragraph separators.
_HIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_JOINERS = {"\u200c", "\u200d"}
#: Letters and marks that draw nothing: the combining grapheme joiner, the Hangul
#: fillers and the blank Braille pattern.
_BLANK = {"\u034f", "\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}
_LINE_BREAKS = {"\n", "\r"}


def hidden_character(text: str, *, lines: bool = False) -> str | None:
    """The first character of `text` no reader would see, or None. `lines`: the text may
    break its lines (line feeds and carriage returns are then seen)."""
    for index, char in enumerate(text):
        if lines and char in _LINE_BREAKS:
            continue
        if char in _JOINERS and 0 < index < len(text) - 1:
            before, after = text[index - 1], text[index + 1]
            if not (before.isspace() or after.isspace() or {before, after} & _JOINERS):
                continue
        if char in _BLANK or unicodedata.category(char) in _HIDDEN:
            return char
    return None


def is_shown(text: str, *, lines: bool = False) -> bool:
    """Whether every character of `text` can be seen (`hidden_character`)."""
    return hidden_character(text, lines=lines) is None


def validate_shown(text: str) -> None:
    """A validator for names and one-line text: refuses any character no one sees."""
    if not is_shown(text):
        raise ValidationError(HIDDEN_CHARACTERS, code="hidden_characters")


def validate_shown_lines(text: str) -> None:
    """A validator for free text of several lines: as `validate_shown`, line breaks
    allowed."""
    if not is_shown(text, lines=True):
        raise ValidationError(HIDDEN_CHARACTERS, code="hidden_characters")
