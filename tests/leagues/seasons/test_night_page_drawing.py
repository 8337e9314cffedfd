"""The night's page writes its scorecards and member lists in Python (`scorecards` tags,
`MemberSelect`) where templates drew them a node at a time: the HTML is the same."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from django import forms
from django.template import Context, Template
from django.template.loader import get_template

from leagues.attendance.forms import AbsenceForm, MemberSelect, SubstituteForm, one_member_list
from leagues.clubs.selectors import club_members
from leagues.results.selectors import night_tables, table_view
from leagues.templatetags.scorecards import check_box
from tests.factories import even_holes, make_player, played_table

pytestmark = pytest.mark.django_db

#: The scorecard's table as the template drew it before the tags: the reference.
DRAWN_BY_TEMPLATE = (Path(__file__).parent / "scorecard_drawn_by_template.html").read_text()


def _table_part(html: str) -> str:
    return html[html.index("<thead>") : html.index("</tbody>") + len("</tbody>")]


@pytest.mark.parametrize("duplicate_deals", [False, True])
@pytest.mark.parametrize("public", [False, True])
def test_the_scorecard_tags_write_what_the_template_drew(club_night, duplicate_deals, public):
    """The fixture's table still to enter, finished tables (one won after a playoff, a
    player's name to escape), and a table hiding the holes its viewer has yet to play."""
    night = club_night.night
    night.duplicate_deals = duplicate_deals
    night.save(update_fields=["duplicate_deals"])
    club_night.others[0].display_name = 'Noah <"&">'
    club_night.others[0].save(update_fields=["display_name"])
    people = [club_night.member, *club_night.others]
    played_table(night, people, even_holes(30, 30, 35, playoff=[[2, 3, None]]))
    played_table(night, people, even_holes(31, 29, 40))
    views = [table_view(night_table) for night_table in night_tables(night)]
    hidden = views[1]
    views.append(
        replace(
            hidden,
            cards=[
                replace(card, holes=[*card.holes[:4], *[None] * 5], hidden=True)
                for card in hidden.cards
            ],
            hidden=True,
        )
    )
    assert any(view.cards[0].playoff for view in views)
    partial = get_template("leagues/night.html#scorecard")
    reference = Template(DRAWN_BY_TEMPLATE)
    for view in views:
        context = {
            "view": view,
            "night": night,
            "league": club_night.league,
            "holes": range(1, 10),
            "public": public,
        }
        drawn = partial.render(context)
        assert _table_part(drawn) == reference.render(Context(context)).strip()
    assert ("#hole-3" in drawn) == duplicate_deals
    assert ("&lt;&quot;&amp;&quot;&gt;" in drawn) and '<"&">' not in drawn


def _members(club_night):
    return club_members(club_night.club)


@pytest.mark.parametrize(
    "data",
    [None, {"absence-player": "", "absence-notice": "1"}, {"absence-notice": "1"}],
)
def test_a_member_select_draws_what_djangos_select_draws(club_night, data):
    """Empty, with a member chosen (once the form is bound), and with an error."""
    club_night.member.display_name = 'Mia <"&">'
    club_night.member.save(update_fields=["display_name"])
    if data is not None and "absence-player" in data:
        data["absence-player"] = str(club_night.member.pk)
    form = AbsenceForm(data, members=_members(club_night))
    if data is not None:
        form.is_valid()
    field = form["player"]
    ours = str(field)
    field.field.widget = forms.Select(choices=field.field.choices)
    assert ours == str(field)
    assert "Mia &lt;&quot;&amp;&quot;&gt;" in ours
    if data is not None and "absence-player" in data:
        assert f'value="{club_night.member.pk}" selected' in ours
    if data == {"absence-notice": "1"}:
        assert 'aria-invalid="true"' in ours


def test_the_night_forms_read_their_member_lists_once(club_night, django_assert_num_queries):
    """The three member lists of the absence and substitute forms come from one query,
    and list every member, by name."""
    absence = AbsenceForm(members=_members(club_night))
    substitute = SubstituteForm(members=_members(club_night))
    with django_assert_num_queries(1):
        one_member_list(absence, substitute)
        drawn = [str(absence["player"]), str(substitute["member"]), str(substitute["player"])]
    names = list(_members(club_night).values_list("display_name", flat=True))
    for select in drawn:
        assert [name for name in names if f">{name}</option>" in select] == names
    assert isinstance(substitute.fields["player"].widget, MemberSelect)


def test_a_check_box_writes_what_djangos_checkbox_draws(club_night):
    """The players present list: boxes ticked and not, and a value to escape."""
    others = [make_player(display_name="Zed"), *club_night.others]
    field = forms.MultipleChoiceField(
        choices=[('a"<b', "odd"), *((str(p.pk), p.name) for p in others)],
        widget=forms.CheckboxSelectMultiple,
    )

    class Boxes(forms.Form):
        players = field

    form = Boxes(initial={"players": ['a"<b', str(others[0].pk)]})
    boxes = list(form["players"])
    assert "checked" in boxes[0].tag()
    for box in boxes:
        assert check_box(box.data) == box.tag()
