"""Announcements: an organiser writes to the club's members, or one league's, by mail."""
