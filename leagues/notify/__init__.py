"""Telling a player by mail that a turn-based table waits for their move."""
