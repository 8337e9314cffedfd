"""Accounts and home at the top level; the league pages under /leagues/ (namespace "leagues")."""

from django.urls import include, path

from . import service_worker, table_start, web_app
from .accounts import views as accounts
from .announcements import views as announcements
from .attendance import views as attendance
from .board import views as board
from .calendar import views as calendar
from .checkin import views as checkin
from .clubs import views as clubs
from .duplicate import views as duplicate
from .events import views as events
from .invitations import views as invitations
from .notify import views as notify
from .players import views as players
from .public import views as public
from .reporting import views as reporting
from .results import views as results
from .seasons import views as seasons
from .seating import views as seating
from .standings import views as standings
from .teams import views as teams

league_patterns = [
    path("", clubs.index, name="index"),
    path("clubs/new/", clubs.club_create, name="club_create"),
    path("clubs/<slug:slug>/", clubs.club, name="club"),
    path("clubs/<slug:slug>/leagues/new/", clubs.league_create, name="league_create"),
    path("clubs/<slug:slug>/members/new/", clubs.member_add, name="member_add"),
    path(
        "clubs/<slug:slug>/members/<int:membership_id>/role/",
        clubs.member_role_set,
        name="member_role",
    ),
    path(
        "clubs/<slug:slug>/members/<int:membership_id>/remove/",
        clubs.member_remove,
        name="member_remove",
    ),
    path("clubs/<slug:slug>/invitations/", invitations.invitations, name="invitations"),
    path("clubs/<slug:slug>/join-link/", invitations.join_link_renew, name="join_link_renew"),
    path(
        "clubs/<slug:slug>/join-link/withdraw/",
        invitations.join_link_withdraw,
        name="join_link_withdraw",
    ),
    path("clubs/<slug:slug>/invitations/send/", invitations.invite, name="invite"),
    path(
        "invitations/<int:invitation_id>/withdraw/",
        invitations.invitation_withdraw,
        name="invitation_withdraw",
    ),
    path(
        "invitations/<int:invitation_id>/send-again/",
        invitations.invitation_send_again,
        name="invitation_send_again",
    ),
    path("clubs/<slug:slug>/roster/", invitations.roster, name="roster"),
    path("clubs/<slug:slug>/roster/confirm/", invitations.roster_confirm, name="roster_confirm"),
    path("join/<str:secret>/", invitations.join, name="join"),
    path("invited/<str:secret>/", invitations.invitation, name="invitation"),
    path("<int:league_id>/", seasons.league, name="league"),
    path("<int:league_id>/seasons/new/", seasons.season_create, name="season_create"),
    path("<int:league_id>/players/<int:player_id>/", players.player, name="player"),
    path("<int:league_id>/teams/", teams.teams, name="teams"),
    path("<int:league_id>/teams/settings/", teams.team_rules, name="team_rules"),
    path("<int:league_id>/teams/new/", teams.team_create, name="team_create"),
    path("teams/<int:team_id>/members/", teams.team_member_add, name="team_member_add"),
    path(
        "teams/<int:team_id>/members/remove/",
        teams.team_member_remove,
        name="team_member_remove",
    ),
    path("teams/<int:team_id>/captain/", teams.team_captain, name="team_captain"),
    path("teams/<int:team_id>/delete/", teams.team_delete, name="team_delete"),
    path("nights/<int:night_id>/teams/<int:team_id>/line-up/", teams.line_up, name="line_up"),
    path(
        "seasons/<int:season_id>/team-standings.csv",
        teams.team_standings_csv,
        name="team_standings_csv",
    ),
    path("seasons/<int:season_id>/", seasons.season, name="season"),
    path("seasons/<int:season_id>/standings.csv", standings.standings_csv, name="standings_csv"),
    path("seasons/<int:season_id>/nights/new/", seasons.night_create, name="night_create"),
    path("nights/<int:night_id>/", seasons.night, name="night"),
    path("nights/<int:night_id>/players/", attendance.night_players, name="night_players"),
    path("nights/<int:night_id>/seating/", seating.night_seat, name="night_seat"),
    path("nights/<int:night_id>/check-in/", checkin.check_in, name="check_in"),
    path("nights/<int:night_id>/check-in/undo/", checkin.check_in_undo, name="check_in_undo"),
    path("nights/<int:night_id>/door/", checkin.door_sign, name="door_sign"),
    path("nights/<int:night_id>/arrivals/", checkin.arrivals, name="night_arrivals"),
    path("nights/<int:night_id>/absences/", attendance.night_absence, name="night_absence"),
    path("nights/<int:night_id>/answer/", attendance.night_answer, name="night_answer"),
    path("nights/<int:night_id>/answers-close/", attendance.answers_close, name="answers_close"),
    path("answers/renew/", attendance.answer_links_renew, name="answer_links_renew"),
    path("answers/<int:player_id>/<str:token>/", attendance.answer_link, name="answer_link"),
    path(
        "nights/<int:night_id>/substitutes/", attendance.night_substitute, name="night_substitute"
    ),
    path(
        "nights/<int:night_id>/absences/<int:player_id>/clear/",
        attendance.night_absence_clear,
        name="night_absence_clear",
    ),
    path(
        "nights/<int:night_id>/scorecards.csv",
        results.night_scorecards_csv,
        name="night_scorecards_csv",
    ),
    path("nights/<int:night_id>/deals/", duplicate.night_deals, name="night_deals"),
    path("tables/<int:night_table_id>/deal-sheet/", duplicate.deal_sheet, name="deal_sheet"),
    path("tables/<int:night_table_id>/results/", results.table_results, name="table_results"),
    path("tables/<int:night_table_id>/correct/", results.table_correct, name="table_correct"),
    path("nights/<int:night_id>/table-cards/", reporting.table_cards, name="table_cards"),
    path("tables/<int:night_table_id>/table-card/", reporting.table_card, name="table_card"),
    path("report/", reporting.report_code, name="report_code"),
    path("report/<str:code>/", reporting.report, name="report"),
    path("report/<str:code>/holes/<int:number>/", reporting.report_hole, name="report_hole"),
    path(
        "report/<str:code>/holes/<int:number>/confirm/",
        reporting.report_confirm,
        name="report_confirm",
    ),
    path(
        "report/<str:code>/holes/<int:number>/dispute/",
        reporting.report_dispute,
        name="report_dispute",
    ),
    path(
        "report/<str:code>/holes/<int:number>/settle/",
        reporting.report_settle,
        name="report_settle",
    ),
    path("nights/<int:night_id>/schedule/", seasons.night_schedule, name="night_schedule"),
    path("nights/<int:night_id>/board/", board.board_create, name="board_create"),
    path("nights/<int:night_id>/board/renew/", board.board_renew, name="board_renew"),
    path("nights/<int:night_id>/board/revoke/", board.board_revoke, name="board_revoke"),
    path("board/<str:token>/", board.board, name="board"),
    path("<int:league_id>/calendar/", calendar.league_calendar, name="calendar"),
    path("<int:league_id>/calendar/new-address/", calendar.calendar_reset, name="calendar_reset"),
    path("<int:league_id>/calendar/<str:token>.ics", calendar.calendar_feed, name="calendar_feed"),
    path("tables/<int:night_table_id>/start/", table_start.start_table, name="table_start"),
    path("<int:league_id>/corrections/", results.league_corrections, name="corrections"),
    path("<int:league_id>/public/", public.league_public, name="league_public"),
    path("seasons/<int:season_id>/close/", seasons.season_close, name="season_close"),
    path("seasons/<int:season_id>/next/", seasons.season_next, name="season_next"),
    path("clubs/<slug:slug>/events/", events.club_events, name="events"),
    path(
        "clubs/<slug:slug>/announcements/",
        announcements.announcements,
        name="announcements",
    ),
    path(
        "turns/unsubscribe/<int:player_id>/<str:token>/",
        notify.unsubscribe,
        name="turn_mail_off",
    ),
    path("turns/push/on/", notify.push_subscribe, name="push_on"),
    path("turns/push/off/", notify.push_unsubscribe, name="push_off"),
    path(
        "unsubscribe/<int:player_id>/<str:token>/",
        announcements.unsubscribe,
        name="unsubscribe",
    ),
    path("clubs/<slug:slug>/events/new/", events.event_create, name="event_create"),
    path("events/<int:event_id>/", events.event, name="event"),
    path("events/<int:event_id>/enter/", events.event_enter, name="event_enter"),
    path("events/<int:event_id>/withdraw/", events.event_withdraw, name="event_withdraw"),
    path(
        "events/<int:event_id>/waiting/<int:waiting_id>/",
        events.event_waiting,
        name="event_waiting",
    ),
    path("events/<int:event_id>/check-in/", events.event_check_in, name="event_check_in"),
    path("events/<int:event_id>/entries/", events.event_add_entry, name="event_add_entry"),
    path("events/<int:event_id>/apart/", events.event_apart, name="event_apart"),
    path(
        "events/<int:event_id>/apart/<int:apart_id>/remove/",
        events.event_apart_remove,
        name="event_apart_remove",
    ),
    path("events/<int:event_id>/start/", events.event_start, name="event_start"),
    path("events/<int:event_id>/close-round/", events.event_close_round, name="event_close_round"),
    path(
        "events/tables/<int:event_table_id>/results/",
        events.event_table_results,
        name="event_table_results",
    ),
    path("public/<int:league_id>/", public.public_league, name="public_league"),
    path(
        "public/<int:league_id>/calendar.ics",
        public.public_calendar_feed,
        name="public_calendar_feed",
    ),
    path(
        "public/<int:league_id>/corrections/",
        public.public_corrections,
        name="public_corrections",
    ),
    path("public/seasons/<int:season_id>/", public.public_season, name="public_season"),
    path("public/nights/<int:night_id>/", public.public_night, name="public_night"),
    path(
        "public/nights/<int:night_id>/deals/",
        public.public_night_deals,
        name="public_night_deals",
    ),
]

urlpatterns = [
    path("", accounts.home, name="home"),
    path("sw.js", service_worker.script, name="service_worker"),
    path("manifest.webmanifest", web_app.web_manifest, name="web_manifest"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/profile/", accounts.account, name="account"),
    path("accounts/profile/my-data.json", accounts.data_json, name="account_data_json"),
    path("accounts/profile/my-data.csv", accounts.data_csv, name="account_data_csv"),
    path("accounts/profile/close/", accounts.close_account, name="account_close"),
    path("accounts/password_reset/", accounts.password_reset, name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("leagues/", include((league_patterns, "leagues"))),
]
