"""In real browsers: the table's controls keep what a player chose and never overlap."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Move, Table
from tests.e2e.test_live_play import sign_in
from tests.factories import make_player

pytestmark = pytest.mark.e2e


def live(page, server, table: Table) -> None:
    """Open the table and wait until the socket's first frame has made it live."""
    page.goto(server.url + table.get_absolute_url())
    page.wait_for_selector("#table-board:not([inert])", state="attached")


def test_a_tee_off_tick_survives_another_players_tee_off(daphne_server, playwright_browser):
    """Ana ticks a card, Ben tees off (a live frame re-renders Ana's board): her tick stays,
    and with a second one her tee off goes through."""
    ana_player = make_player("ana", display_name="Ana")
    ben_player = make_player("ben", display_name="Ben")
    table = services.create_table(
        host=ana_player, variant="play-nine", seat_count=2, players=[ana_player, ben_player]
    )
    table = services.start_match(table=table, by=ana_player)
    ana_context, ana = sign_in(playwright_browser, daphne_server, "ana")
    ben_context, ben = sign_in(playwright_browser, daphne_server, "ben")
    live(ana, daphne_server, table)
    live(ben, daphne_server, table)

    ana.locator(".tee-off label.pick").nth(0).click()
    expect(ana.locator("#tee-0")).to_be_checked()
    ben.locator(".tee-off label.pick").nth(0).click()
    ben.locator(".tee-off label.pick").nth(5).click()
    ben.locator("#tee-off-button").click()
    for _ in range(100):
        table.refresh_from_db()
        if Move.objects.filter(hole__table=table).count() == 1:
            break
        ana.wait_for_timeout(50)
    # Ana's board has been swapped for the new version, with her tick in it.
    ana.wait_for_selector(f'#table-status[data-version="{table.version}"]', state="attached")
    expect(ana.locator("#tee-off-button")).to_be_visible()
    expect(ana.locator("#tee-0")).to_be_checked()

    ana.locator(".tee-off label.pick").nth(5).click()
    ana.locator("#tee-off-button").click()
    expect(ana.locator("#tee-off-button")).to_have_count(0)
    expect(ana.locator("#table-alert")).not_to_contain_text("Choose exactly")
    assert Move.objects.filter(hole__table=table).count() == 2
    ana_context.close()
    ben_context.close()
