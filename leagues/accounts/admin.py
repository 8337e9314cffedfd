"""Players in the admin, with the name the tables show."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from ..models import Player


@admin.register(Player)
class PlayerAdmin(UserAdmin):
    fieldsets = (
        *UserAdmin.fieldsets,
        ("Fairway", {"fields": ("display_name",)}),
    )
    add_fieldsets = (
        *UserAdmin.add_fieldsets,
        ("Fairway", {"fields": ("display_name",)}),
    )
    list_display = ("username", "display_name", "email", "is_staff", "date_joined")
    search_fields = ("username", "display_name", "email")
