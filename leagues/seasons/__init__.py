"""Seasons and nights: a league's page and its seasons, a season's page, its nights planned
ahead, each night's page, and a season's close."""
