"""Seating a night: the players present dealt to live or paper tables, at random or
balanced by rating, with byes when only full tables play."""
