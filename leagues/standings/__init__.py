"""Standings: how the league scores a card (places, points, net strokes), a season's
standings computed from the scorecards every time, and a closed season's frozen ones."""
