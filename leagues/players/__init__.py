"""A player's record in a league: matches, holes, the strokes given away, and its charts."""
