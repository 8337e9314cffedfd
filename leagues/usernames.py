"""When two usernames are the same name: compared casefolded and NFKC-normalised.

"Ärger" and "ärger", or "ﬁsh" and "fish", name one account. SQLite compares case
in ASCII letters only, so the comparison is not left to the database: each account
keeps its username's key (`Player.username_key`), unique on every database.
"""

from __future__ import annotations

import unicodedata

USERNAME_TAKEN = "That username is taken. Please choose another."


def username_key(username: str) -> str:
    """The form of `username` that two equal names share (NFKC of the casefolded NFKC:
    casefolding can undo a normalisation)."""
    folded = unicodedata.normalize("NFKC", username).casefold()
    return unicodedata.normalize("NFKC", folded)
