"""A player's page: matches, holes, averages, best and worst, pairs, rating and SVG charts."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.db import connection
from django.template.defaultfilters import floatformat
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import scorecards
from games.engine import scoring_pairs
from games.models import Hole, Seat, Table
from leagues.players import charts
from leagues.players.selectors import player_record
from leagues.ratings.services import rebuild_ratings
from leagues.standings.services import rebuild_figures
from leagues.templatetags.charts import tenths as tenths_filter
from tests import driving
from tests.factories import (
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    played_table,
    settle,
)

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


@pytest.fixture
def history(club_night):
    cn = club_night
    noah = cn.others[0]
    played_table(cn.night, [cn.member, noah], even_holes(30, 35))
    later = make_night(cn.season, date(2026, 3, 8))
    played_table(later, [cn.member, noah], even_holes(40, 20))
    rebuild_ratings(league=cn.league)
    return cn


def test_the_record_counts_matches_holes_and_extremes(history):
    cn = history
    record = player_record(cn.league, cn.member)
    assert len(record.matches) == 2
    assert record.holes == 18
    assert record.strokes == 70
    assert record.mean_per_match == 35
    assert record.best_hole == 1
    assert record.worst_hole == 32
    assert record.wins == 1
    assert record.spread == [(1, 16), (22, 1), (32, 1)]
    assert record.pairs_made is None


def test_the_page_draws_accessible_svg_charts_and_the_rating_history(client, history):
    cn = history
    client.force_login(cn.others[1])  # any member may look
    response = client.get(reverse("leagues:player", args=[cn.league.pk, cn.member.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count("<svg") == 3
    assert '<title id="strokes-chart-title">Strokes per match over time</title>' in html
    assert '<desc id="spread-desc">' in html
    assert 'role="img"' in html
    assert "01 Mar: 30; 08 Mar: 40." in html
    assert "Rating over time" in html and "<summary>How the rating is worked out</summary>" in html
    assert "<script" not in html.split("</main>")[0].split('<main id="main"')[1]


def test_pairs_made_are_counted_on_finished_live_holes(club_night):
    cn = club_night
    table = Table.objects.create(
        variant="play-nine", kind=Table.Kind.LIVE, status=Table.Status.FINISHED, seat_count=2
    )
    Seat.objects.create(table=table, position=0, player=cn.member)
    Seat.objects.create(table=table, position=1, player=cn.others[0])
    scorecards.open_scorecards(table=table)
    for number, strokes in enumerate(even_holes(30, 35), start=1):
        driving.record_hole(table=table, number=number, strokes=dict(enumerate(strokes)))
    Hole.objects.create(
        table=table,
        number=1,
        dealer=0,
        seat_positions=[0, 1],
        state={
            "phase": "over",
            "variant": "play-nine",
            "layouts": [[3, 3, 7, 7, 3, 3, 1, 2], [5, 6, 7, 8, 9, 10, 11, 12]],
        },
    )
    cn.night.tables.create(table=table, number=2)
    settle(cn.night)
    record = player_record(cn.league, cn.member)
    assert (record.pairs_made, record.pairs_holes) == (2, 1)


def _live_table(night, seated, number: int) -> Table:
    """A finished live table of the night, its nine holes' strokes on the cards."""
    table = Table.objects.create(
        variant="play-nine",
        kind=Table.Kind.LIVE,
        status=Table.Status.FINISHED,
        seat_count=len(seated),
    )
    for position, person in enumerate(seated):
        Seat.objects.create(table=table, position=position, player=person)
    scorecards.open_scorecards(table=table)
    for hole, strokes in enumerate(even_holes(30 + number, 35), start=1):
        driving.record_hole(table=table, number=hole, strokes=dict(enumerate(strokes)))
    night.tables.create(table=table, number=number)
    return table


def _pairs_read_from_holes(league, player) -> tuple[int | None, int]:
    """Pairs made as the player page worked them out before they were stored: from
    every live hole of the player's, its final layouts."""
    pairs = holes = 0
    for hole in Hole.objects.filter(
        table__night_table__night__season__league=league,
        table__kind=Table.Kind.LIVE,
        table__seats__player=player,
        number__lte=9,
    ):
        state = hole.state or {}
        position = hole.table.seats.get(player=player).position
        if state.get("phase") != "over" or position not in hole.seat_positions:
            continue
        layout = state["layouts"][hole.seat_positions.index(position)]
        try:
            pairs += len(scoring_pairs(state["variant"], layout))
        except ValueError:
            continue  # not a layout of the game: not counted
        holes += 1
    return (pairs if holes else None), holes


#: Play Nine's cards, and one that is not.
CARDS = st.lists(st.sampled_from([-5, *range(13), 99]), min_size=8, max_size=8)


@pytest.mark.django_db
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    holes=st.lists(
        st.tuples(st.integers(0, 1), st.integers(1, 10), st.booleans(), CARDS, CARDS),
        max_size=8,
    )
)
def test_the_stored_pairs_made_equal_those_read_from_the_live_holes(holes):
    """Holes over and not, of the nine and not, at two live tables (the player at seat 0
    of one, seat 1 of the other), a paper table besides: the pairs made the page sums
    from the stored figures are those the holes' layouts give, and a rebuild of the
    figures finds each one right."""
    mia, noah = make_player(), make_player()
    league = make_league(make_club(organiser=make_player(), members=[mia, noah]))
    night = make_night(make_season(league))
    tables = [_live_table(night, [mia, noah], 1), _live_table(night, [noah, mia], 2)]
    played_table(night, [mia, noah], even_holes(30, 35))
    done = set()
    for which, number, over, first, second in holes:
        if (which, number) in done:
            continue
        done.add((which, number))
        Hole.objects.create(
            table=tables[which],
            number=number,
            dealer=0,
            seat_positions=[0, 1],
            state={
                "phase": "over" if over else "play",
                "variant": "play-nine",
                "layouts": [first, second],
            },
        )
    settle(night)
    for person in (mia, noah):
        record = player_record(league, person)
        assert (record.pairs_made, record.pairs_holes) == _pairs_read_from_holes(league, person)
    assert str(rebuild_figures(league=league)) == "every stored figure was right"


def test_line_chart_geometry_spans_the_plot_lowest_at_the_bottom():
    chart = charts.line_chart([("a", 10), ("b", 30), ("c", 20)])
    xs = [p.x for p in chart.points]
    ys = [p.y for p in chart.points]
    assert xs[0] == charts.LEFT and xs[-1] == charts.WIDTH - charts.RIGHT
    assert ys[1] == charts.TOP and ys[0] == charts.HEIGHT - charts.BOTTOM
    assert chart.polyline.count(",") == 3
    assert charts.line_chart([]) is None


def test_histogram_has_a_bar_for_every_score_between_the_extremes():
    chart = charts.histogram([(-2, 1), (1, 4)])
    assert [b.label for b in chart.bars] == ["-2", "-1", "0", "1"]
    assert [b.count for b in chart.bars] == [1, 0, 0, 4]
    assert chart.bars[3].height == charts.HEIGHT - charts.TOP - charts.BOTTOM


@pytest.mark.parametrize("most", [1, 2, 3, 5, 9, 16, 40])
def test_histogram_ticks_count_holes_in_distinct_whole_steps_up_to_the_tallest_bar(most):
    chart = charts.histogram([(0, 1), (3, most)])
    labels = [tick.label for tick in chart.ticks]
    values = [int(label) for label in labels]
    assert values[0] == 0 and values[-1] >= most
    assert len(set(labels)) == len(labels) and values == sorted(values)
    assert 2 <= len(values) <= 5
    # The top tick sits at the top of the tallest bar's slot, at the axis's own scale.
    plot_height = charts.HEIGHT - charts.TOP - charts.BOTTOM
    expected = chart.ticks[-1].y + plot_height * (values[-1] - most) / values[-1]
    assert chart.bars[-1].y == pytest.approx(expected)


def test_line_chart_ticks_never_repeat_a_label():
    chart = charts.line_chart([("a", 30), ("b", 31)])
    labels = [tick.label for tick in chart.ticks]
    assert labels == ["30", "31"]


def test_a_wide_histogram_labels_only_as_many_scores_as_fit():
    chart = charts.histogram([(-10, 2), (40, 3)])
    labelled = [bar.label for bar in chart.bars if bar.labelled]
    assert labelled[0] == "-10" and len(labelled) <= charts.MAX_LABELS
    assert all(bar.labelled for bar in charts.histogram([(1, 2), (16, 3)]).bars)


def test_ratings_read_in_plain_words_with_the_method_one_click_away(client, history):
    cn = history
    client.force_login(cn.member)
    for url in (
        reverse("leagues:league", args=[cn.league.pk]),
        reverse("leagues:player", args=[cn.league.pk, cn.member.pk]),
    ):
        html = client.get(url).content.decode()
        shown, _, rest = html.partition("<details")
        method, _, after = rest.partition("</details>")
        assert "goes up when" in shown
        assert "Plackett–Luce" in method and "μ − 3σ" in method
        for jargon in ("Plackett", "μ", "σ", "Ordinal", "ordinal"):
            assert jargon not in shown.split("<main")[1] + after, (url, jargon)


@pytest.fixture
def long_history(club_night, monkeypatch):
    """Mia's five matches, Noah beside her, on five nights: more than the page charts
    (4 here) and than a page lists (3 here)."""
    from leagues.players import selectors

    monkeypatch.setattr(selectors, "RECENT_MATCHES", 4)
    monkeypatch.setattr(selectors, "MATCHES_PER_PAGE", 3)
    cn = club_night
    for day in range(1, 6):
        night = make_night(cn.season, date(2026, 4, day))
        played_table(night, [cn.member, cn.others[0]], even_holes(30 + day, 50))
    return cn


def _matches(html: str) -> list[str]:
    """The dates of the matches listed, in the page's order."""
    section = html.split('id="matches-heading"')[1]
    return re.findall(r"(\d+ Apr 2026)</a>", section)


def test_the_figures_count_every_match_and_the_charts_the_latest(client, long_history):
    cn = long_history
    record = player_record(cn.league, cn.member)
    assert (record.played, record.wins, record.holes, record.strokes) == (5, 5, 45, 165)
    assert record.mean_per_match == 33 and (record.best_hole, record.worst_hole) == (1, 27)
    assert [line.date.day for line in record.matches] == [2, 3, 4, 5]
    client.force_login(cn.others[1])
    html = client.get(reverse("leagues:player", args=[cn.league.pk, cn.member.pk])).content.decode()
    assert '<span class="stat-value">5</span><span class="stat-label">matches</span>' in html
    assert "The latest 4 of 5 matches." in html
    assert "02 Apr: 32; 03 Apr: 33; 04 Apr: 34; 05 Apr: 35." in html


def test_the_matches_come_a_page_at_a_time_newest_first(client, long_history):
    cn = long_history
    client.force_login(cn.others[1])
    url = reverse("leagues:player", args=[cn.league.pk, cn.member.pk])
    first = client.get(url).content.decode()
    assert _matches(first) == ["5 Apr 2026", "4 Apr 2026", "3 Apr 2026"]
    assert "Page 1 of 2" in first and 'href="?page=2#matches" rel="next">Older matches' in first
    assert 'rel="prev"' not in first
    second = client.get(url, {"page": 2}).content.decode()
    assert _matches(second) == ["2 Apr 2026", "1 Apr 2026"]
    assert 'href="?page=1#matches" rel="prev">Newer matches' in second
    # A page that is not one gives the last, or the first.
    assert _matches(client.get(url, {"page": 99}).content.decode()) == _matches(second)
    assert _matches(client.get(url, {"page": "x"}).content.decode()) == _matches(first)


def test_a_short_history_is_one_page_with_no_page_links(client, history):
    cn = history
    client.force_login(cn.member)
    html = client.get(reverse("leagues:player", args=[cn.league.pk, cn.member.pk])).content.decode()
    assert _matches(html) == [] and "Page 1 of" not in html and "The latest" not in html
    assert html.count('<a href="/leagues/nights/') >= 2


def test_the_player_page_reads_as_much_for_a_long_history_as_for_a_short_one(
    client, club_night, django_assert_max_num_queries
):
    """The figures are summed in the database and the lists are bounded: a few queries,
    however many matches the player has played."""
    cn = club_night
    client.force_login(cn.others[1])
    url = reverse("leagues:player", args=[cn.league.pk, cn.member.pk])
    counts = []
    for day in range(1, 41):
        night = make_night(cn.season, date(2026, 1, 1) + timedelta(days=day))
        played_table(night, [cn.member, cn.others[0]], even_holes(30 + day % 7, 50))
        if day in (2, 40):
            with CaptureQueriesContext(connection) as queries:
                html = client.get(url).content.decode()
            counts.append(len(queries))
    with django_assert_max_num_queries(counts[0]):
        client.get(url)
    assert counts[1] <= counts[0]
    assert '<span class="stat-value">40</span><span class="stat-label">matches</span>' in html


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        st.floats(min_value=-1000, max_value=2000, allow_nan=False),
        st.integers(-1000, 2000),
        st.integers(-20000, 20000).map(lambda n: n / 20),  # halves and twentieths
    )
)
def test_a_chart_s_coordinates_are_written_as_floatformat_writes_them(value):
    assert charts.tenths(value) == floatformat(value, 1)
    assert tenths_filter(value) == floatformat(value, 1)  # the page's `tenths` filter


def test_the_tenths_filter_writes_nothing_for_nothing_as_floatformat_does():
    assert tenths_filter(None) == floatformat(None, 1) == ""
    assert tenths_filter("") == floatformat("", 1) == ""
