from django.urls import path

from . import views

app_name = "games"
urlpatterns = [
    path("tables/<int:table_id>/", views.table, name="table"),
]
