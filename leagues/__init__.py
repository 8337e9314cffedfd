"""Players, clubs and their leagues: a room per thing a club does, each with its pages
(`views`), its writes (`services`) and its reads (`selectors`), and where it has them its
records (`models`), forms (`forms`) and admin (`admin`).

accounts/    the home page, sign-up, a player's account, log-in limits
clubs/       members, a club's leagues and their rules
seasons/     a league's seasons, nights planned ahead, a night's page, a season's close
attendance/  who is present, away or standing in; whom a result counts for
checkin/     members checking in to a night, from its page or the door's sign
seating/     the players present dealt to live or paper tables
results/     a night's scorecards, paper tables' results entered, corrections
reporting/   a paper table reporting itself from phones: holes entered, confirmed, settled
standings/   how a card scores (places, points, net) and a season's standings
ratings/     openskill ratings, rebuilt from the scorecards
players/     a player's record and its charts
duplicate/   matchpoints on duplicate nights, the deal comparison, deal sheets
handicaps/   how a handicap is worked out, and frozen when a night is seated
calendar/    the nights as an ICS feed, and the mail before and after a night
public/      a league's results opened to anyone
board/       the night's board for the room's screen, updated as holes land
events/      a club's Swiss, knockout and round robin events
teams/       a team league's teams, captains and line-ups, and team standings

Beside them: `models` (every model, taken in from its room: Django loads an app's models
from there), `roles` (a player's role in a club, which every room asks), `news` (a
league's news, the signals its writes send) and `signals` (where leagues hears news,
games' and its own, and the rooms that show it are told), `screens` (the socket of a
page that watches a night or an event), `guards` (the checks every write makes first),
`pages` (what every page shares: access, lookups, breadcrumb) and `exports` (CSV).
docs/ARCHITECTURE.md walks the rooms, the way a result travels and each rule's home;
pyproject.toml's import-linter contracts keep pages over writes over reads.
"""
