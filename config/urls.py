"""The site's URL map: each app brings its own urls."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("leagues.urls")),
    path("", include("games.urls")),
]
