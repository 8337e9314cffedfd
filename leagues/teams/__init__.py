"""Team leagues: teams of a club's members, their captains and each night's line-ups."""
