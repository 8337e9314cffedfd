"""A club's ways in: its join link, invitations by mail, and a roster imported."""
