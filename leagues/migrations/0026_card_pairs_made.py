"""A card's stored figures keep the pairs it scored at a live table, so that a player's
page sums them rather than reading every live hole of their history.

Every league is scored and rated again by the site's own writes, which give the cards
stored already their pairs (the figures are the league's rules applied, which no frozen
copy here could follow). This did 0021_card_results, when it stored the first figures:
it must stay the newest migration of leagues that touches these records' tables (or be
squashed), as the writes need every column they know."""

from django.db import migrations, models


def score_every_league(apps, schema_editor):
    from leagues.models import League
    from leagues.ratings.services import rebuild_ratings
    from leagues.standings.services import rebuild_figures

    for league in League.objects.all():
        rebuild_figures(league=league)
        rebuild_ratings(league=league)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0025_turn_mail_choice_and_turn_notices"),
    ]

    operations = [
        migrations.AddField(
            model_name="cardresult",
            name="pairs",
            field=models.PositiveSmallIntegerField(
                default=0,
                help_text="Pairs scored on the card's live holes whose final layouts are known.",
            ),
        ),
        migrations.AddField(
            model_name="cardresult",
            name="pairs_holes",
            field=models.PositiveSmallIntegerField(
                default=0, help_text="Those live holes (none at a paper table)."
            ),
        ),
        migrations.RunPython(score_every_league, migrations.RunPython.noop),
    ]
