"""The secrets in the addresses of join links and invitations: made with
`secrets.token_urlsafe`, stored as their SHA-256 only, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_secret() -> str:
    """A fresh secret for an address: 256 bits, URL-safe."""
    return secrets.token_urlsafe(32)


def hash_secret(secret: str) -> str:
    """What is stored of a secret. A plain SHA-256 suffices: the secret is random and
    long, so there is no word of it to guess."""
    return hashlib.sha256(secret.encode()).hexdigest()


def matches(secret: str, stored_hash: str) -> bool:
    """Whether `secret` is the one `stored_hash` was made from, in constant time."""
    return bool(stored_hash) and hmac.compare_digest(hash_secret(secret), stored_hash)
