"""Accounts and home at the top level; the league pages under /leagues/ (namespace "leagues")."""

from django.urls import include, path

from . import table_start, views

league_patterns = [
    path("", views.index, name="index"),
    path("clubs/<slug:slug>/", views.club, name="club"),
    path("clubs/<slug:slug>/leagues/new/", views.league_create, name="league_create"),
    path("clubs/<slug:slug>/members/new/", views.member_add, name="member_add"),
    path("<int:league_id>/", views.league, name="league"),
    path("<int:league_id>/seasons/new/", views.season_create, name="season_create"),
    path("<int:league_id>/players/<int:player_id>/", views.player, name="player"),
    path("seasons/<int:season_id>/", views.season, name="season"),
    path("seasons/<int:season_id>/standings.csv", views.standings_csv, name="standings_csv"),
    path("seasons/<int:season_id>/nights/new/", views.night_create, name="night_create"),
    path("nights/<int:night_id>/", views.night, name="night"),
    path("nights/<int:night_id>/players/", views.night_players, name="night_players"),
    path("nights/<int:night_id>/seating/", views.night_seat, name="night_seat"),
    path("nights/<int:night_id>/absences/", views.night_absence, name="night_absence"),
    path("nights/<int:night_id>/substitutes/", views.night_substitute, name="night_substitute"),
    path(
        "nights/<int:night_id>/absences/<int:player_id>/clear/",
        views.night_absence_clear,
        name="night_absence_clear",
    ),
    path(
        "nights/<int:night_id>/scorecards.csv",
        views.night_scorecards_csv,
        name="night_scorecards_csv",
    ),
    path("nights/<int:night_id>/deals/", views.night_deals, name="night_deals"),
    path("tables/<int:night_table_id>/deal-sheet/", views.deal_sheet, name="deal_sheet"),
    path("tables/<int:night_table_id>/results/", views.table_results, name="table_results"),
    path("tables/<int:night_table_id>/correct/", views.table_correct, name="table_correct"),
    path("tables/<int:night_table_id>/start/", table_start.start_table, name="table_start"),
    # Nights planned ahead, calendars, corrections, public leagues, closing a season.
    path("nights/<int:night_id>/schedule/", views.night_schedule, name="night_schedule"),
    path("<int:league_id>/calendar/", views.league_calendar, name="calendar"),
    path("<int:league_id>/calendar/new-address/", views.calendar_reset, name="calendar_reset"),
    path("<int:league_id>/calendar/<str:token>.ics", views.calendar_feed, name="calendar_feed"),
    path("<int:league_id>/corrections/", views.league_corrections, name="corrections"),
    path("<int:league_id>/public/", views.league_public, name="league_public"),
    path("seasons/<int:season_id>/close/", views.season_close, name="season_close"),
    path("seasons/<int:season_id>/next/", views.season_next, name="season_next"),
    path("public/<int:league_id>/", views.public_league, name="public_league"),
    path(
        "public/<int:league_id>/calendar.ics",
        views.public_calendar_feed,
        name="public_calendar_feed",
    ),
    path(
        "public/<int:league_id>/corrections/",
        views.public_corrections,
        name="public_corrections",
    ),
    path("public/seasons/<int:season_id>/", views.public_season, name="public_season"),
    path("public/nights/<int:night_id>/", views.public_night, name="public_night"),
    path(
        "public/nights/<int:night_id>/deals/",
        views.public_night_deals,
        name="public_night_deals",
    ),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/profile/", views.account, name="account"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("leagues/", include((league_patterns, "leagues"))),
]
