"""Accounts: the home page, sign-up, a player's own account page, and log-in limits."""
