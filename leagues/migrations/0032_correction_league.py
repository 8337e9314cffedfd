"""A score correction keeps its league, so that the league's log reads its own rows by
one index rather than every correction of the league through five joins: those recorded
already get theirs from their scorecard's table's night, in one statement."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def fill_league(apps, schema_editor):
    ScoreCorrection = apps.get_model("leagues", "ScoreCorrection")
    Scorecard = apps.get_model("games", "Scorecard")
    league = Scorecard.objects.filter(pk=OuterRef("scorecard_id")).values(
        "table__night_table__night__season__league_id"
    )[:1]
    ScoreCorrection.objects.update(league_id=Subquery(league))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_turn_based_tables"),
        ("leagues", "0031_player_figures"),
    ]

    operations = [
        migrations.AddField(
            model_name="scorecorrection",
            name="league",
            field=models.ForeignKey(
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="corrections",
                to="leagues.league",
            ),
        ),
        migrations.RunPython(fill_league, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="scorecorrection",
            name="league",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="corrections",
                to="leagues.league",
            ),
        ),
        migrations.AddIndex(
            model_name="scorecorrection",
            index=models.Index(
                fields=["league", "-corrected_at", "-id"], name="correction_league_log"
            ),
        ),
    ]
