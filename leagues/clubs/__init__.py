"""Clubs and their members: who belongs, who organises, and the leagues a club runs."""
