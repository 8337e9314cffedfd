"""Ratings: openskill from the places at each match on the league's own game and house
rules, rebuilt from scratch whenever a result changes."""
