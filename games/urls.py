"""Pages of play: the lobby, tables, replays and the rules."""

from django.urls import path

from . import views

app_name = "games"
urlpatterns = [
    path("play/", views.lobby, name="lobby"),
    path("play/tables/", views.lobby_tables, name="lobby_tables"),
    path("play/new/", views.new_table, name="new_table"),
    path("play/now/", views.quick_start, name="quick_start"),
    path("play/invite/<str:code>/", views.invite, name="invite"),
    path("play/your-games/", views.your_games, name="your_games"),
    path("play/your-turns.json", views.turns_waiting, name="turns_waiting"),
    path("rules/", views.rules, name="rules"),
    path("tables/<int:table_id>/", views.table, name="table"),
    path("tables/<int:table_id>/join/", views.join, name="join"),
    path("tables/<int:table_id>/leave/", views.leave, name="leave"),
    path("tables/<int:table_id>/start/", views.start, name="start"),
    path("tables/<int:table_id>/leave-match/", views.leave_match, name="leave_match"),
    path("tables/<int:table_id>/return/", views.return_to_match, name="return"),
    path("tables/<int:table_id>/rematch/", views.rematch, name="rematch"),
    path("tables/<int:table_id>/away/", views.take_break, name="take_break"),
    path("tables/<int:table_id>/watchers/", views.open_to_watchers, name="open_to_watchers"),
    path("tables/<int:table_id>/holes/<int:number>/", views.replay, name="replay"),
    path(
        "tables/<int:table_id>/holes/<int:number>/review/<int:position>/",
        views.review,
        name="review",
    ),
]
