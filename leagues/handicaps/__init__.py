"""Handicaps: worked out from the holes before a night, frozen when the night is seated."""
