"""Fairway installs as a web app: its manifest, served with its own type and linked from
every page, names icons the site serves at the sizes it says; and the VAPID keys of its
Web Push come from `manage.py vapid_keys`, a pair the settings check before starting."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from PIL import Image

from config import vapid
from tests.test_settings import run_manage

pytestmark = pytest.mark.django_db


def test_the_manifest_is_served_with_its_type_and_linked_from_every_page():
    client = Client()
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["name"] == "Fairway" and manifest["start_url"] == "/"
    assert manifest["display"] == "standalone" and manifest["scope"] == "/"
    home = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in home
    assert '<meta name="theme-color" content="#1b4d1e">' in home


def test_each_icon_of_the_manifest_is_a_png_of_the_size_it_says():
    icons = Client().get("/manifest.webmanifest").json()["icons"]
    purposes = {icon["purpose"] for icon in icons}
    assert purposes == {"any", "maskable"}
    assert {icon["sizes"] for icon in icons if icon["purpose"] == "any"} == {"192x192", "512x512"}
    for icon in icons:
        path = finders.find(icon["src"].removeprefix("/static/"))
        assert path, icon["src"]
        with Image.open(path) as image:
            assert image.format == "PNG" and icon["type"] == "image/png"
            assert "{}x{}".format(*image.size) == icon["sizes"]


def test_vapid_keys_prints_a_pair_the_settings_take():
    result = run_manage("vapid_keys", "--subject", "mailto:ops@example.com")
    assert result.returncode == 0, result.stderr
    printed = dict(re.findall(r"^(FAIRWAY_VAPID_\w+)=(\S+)$", result.stdout, re.MULTILINE))
    assert set(printed) == {
        "FAIRWAY_VAPID_PRIVATE_KEY",
        "FAIRWAY_VAPID_PUBLIC_KEY",
        "FAIRWAY_VAPID_SUBJECT",
    }
    assert printed["FAIRWAY_VAPID_SUBJECT"] == "mailto:ops@example.com"
    assert (
        vapid.public_key_of(printed["FAIRWAY_VAPID_PRIVATE_KEY"])
        == printed["FAIRWAY_VAPID_PUBLIC_KEY"]
    )
    assert run_manage("check", **printed).returncode == 0
    # Two runs, two pairs.
    assert run_manage("vapid_keys").stdout != result.stdout


def test_the_settings_refuse_half_a_pair_a_wrong_pair_or_a_bad_subject():
    private, public = vapid.new_pair()
    _, other = vapid.new_pair()
    for env, error in (
        ({"FAIRWAY_VAPID_PRIVATE_KEY": private}, "all three of them, or none"),
        (
            {"FAIRWAY_VAPID_PRIVATE_KEY": private, "FAIRWAY_VAPID_PUBLIC_KEY": other},
            "all three of them, or none",
        ),
        (
            {
                "FAIRWAY_VAPID_PRIVATE_KEY": private,
                "FAIRWAY_VAPID_PUBLIC_KEY": other,
                "FAIRWAY_VAPID_SUBJECT": "mailto:ops@example.com",
            },
            "the public key is not the private key's",
        ),
        (
            {
                "FAIRWAY_VAPID_PRIVATE_KEY": private,
                "FAIRWAY_VAPID_PUBLIC_KEY": public,
                "FAIRWAY_VAPID_SUBJECT": "ops@example.com",
            },
            "a mailto: or https: address",
        ),
        (
            {
                "FAIRWAY_VAPID_PRIVATE_KEY": "short",
                "FAIRWAY_VAPID_PUBLIC_KEY": public,
                "FAIRWAY_VAPID_SUBJECT": "mailto:ops@example.com",
            },
            "the private key is malformed",
        ),
    ):
        result = run_manage("check", **env)
        assert result.returncode != 0 and error in result.stderr, (env, result.stderr[-500:])
