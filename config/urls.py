"""The site's URL map: each app brings its own urls."""

from django.contrib import admin
from django.urls import include, path

from leagues.forms import AdminLoginForm

admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("leagues.urls")),
    path("", include("games.urls")),
]
