"""Every model of the `leagues` app, each defined in the room that owns it.

Django loads an app's models from this module: it takes them in from their rooms (and
nothing else: a room's constants and helpers are imported from the room), and
`from leagues.models import X` works for every model. Nothing is defined here.
"""

from __future__ import annotations

from .accounts.models import Player as Player
from .announcements.models import Announcement as Announcement
from .announcements.models import AnnouncementMail as AnnouncementMail
from .announcements.models import AnnouncementOptOut as AnnouncementOptOut
from .attendance.models import Absence as Absence
from .attendance.models import Answer as Answer
from .attendance.models import AnswerKey as AnswerKey
from .attendance.models import AnswerRule as AnswerRule
from .attendance.models import Substitute as Substitute
from .board.models import NightBoard as NightBoard
from .calendar.models import NightNotice as NightNotice
from .checkin.models import CheckIn as CheckIn
from .clubs.models import Club as Club
from .clubs.models import League as League
from .clubs.models import Membership as Membership
from .events.models import Event as Event
from .events.models import EventApart as EventApart
from .events.models import EventEntry as EventEntry
from .events.models import EventNotice as EventNotice
from .events.models import EventRound as EventRound
from .events.models import EventTable as EventTable
from .events.models import EventWaiting as EventWaiting
from .handicaps.models import NightHandicap as NightHandicap
from .invitations.models import Invitation as Invitation
from .invitations.models import JoinLink as JoinLink
from .notify.models import PushSubscription as PushSubscription
from .notify.models import TurnNotice as TurnNotice
from .ratings.models import Rating as Rating
from .ratings.models import RatingChange as RatingChange
from .reporting.models import ReportedHole as ReportedHole
from .reporting.models import ReportEntry as ReportEntry
from .reporting.models import TableReport as TableReport
from .results.models import LeagueScorecard as LeagueScorecard
from .results.models import ScoreCorrection as ScoreCorrection
from .seasons.models import LeagueNight as LeagueNight
from .seasons.models import Season as Season
from .seating.models import NightTable as NightTable
from .standings.models import CardResult as CardResult
from .standings.models import FrozenStanding as FrozenStanding
from .standings.models import PlayerFigures as PlayerFigures
from .teams.models import LineUp as LineUp
from .teams.models import Team as Team
from .teams.models import TeamMember as TeamMember
