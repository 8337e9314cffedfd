"""A player's page reads their figures in a league from one row (`PlayerFigures`) kept
by the writes of their cards, rather than summing every card and hole they played; each
card's stored figures keep its total and the spread of its hole scores as scored, what
a later write takes away from its player's figures. Both are filled here from the cards
as they stand."""

from collections import Counter, defaultdict

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import OuterRef, Subquery

#: Regulation holes, as when this migration was written.
HOLES = 9
#: Cards written at once.
BATCH = 500


def stored(spread):
    return {str(score): holes for score, holes in sorted(spread.items()) if holes}


def fill(apps, schema_editor):
    CardResult = apps.get_model("leagues", "CardResult")
    Scorecard = apps.get_model("games", "Scorecard")
    ScorecardHole = apps.get_model("games", "ScorecardHole")
    PlayerFigures = apps.get_model("leagues", "PlayerFigures")
    CardResult.objects.update(
        strokes=Subquery(Scorecard.objects.filter(pk=OuterRef("scorecard_id")).values("total"))
    )
    spreads = defaultdict(Counter)
    holes = ScorecardHole.objects.filter(scorecard__league_result__isnull=False, number__lte=HOLES)
    for card_id, strokes in holes.values_list("scorecard_id", "strokes").iterator():
        spreads[card_id][strokes] += 1
    results = list(CardResult.objects.select_related("night_table__night__season", "scorecard"))
    figures = {}
    for result in results:
        result.spread = stored(spreads.get(result.scorecard_id, {}))
        player = result.scorecard.player_id
        if player is None:
            continue
        key = (result.night_table.night.season.league_id, player)
        row = figures.setdefault(key, [0, 0, 0, 0, 0, Counter(), 0, 0])
        row[0] += 1
        row[1] += 1 if result.place == 1 else 0
        row[2] += result.scorecard.total
        row[3] += result.pairs
        row[4] += result.pairs_holes
        row[5].update(spreads.get(result.scorecard_id, {}))
        if result.rated:
            row[6] += result.scorecard.total
            row[7] += result.holes
    CardResult.objects.bulk_update(results, ["spread"], batch_size=BATCH)
    PlayerFigures.objects.bulk_create(
        (
            PlayerFigures(
                league_id=league,
                player_id=player,
                played=played,
                wins=wins,
                strokes=strokes,
                pairs=pairs,
                pairs_holes=pairs_holes,
                spread=stored(spread),
                rated_strokes=rated_strokes,
                rated_holes=rated_holes,
            )
            for (league, player), (
                played,
                wins,
                strokes,
                pairs,
                pairs_holes,
                spread,
                rated_strokes,
                rated_holes,
            ) in figures.items()
        ),
        batch_size=BATCH,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_turn_based_tables"),
        ("leagues", "0030_card_pairs_made"),
    ]

    operations = [
        migrations.AddField(
            model_name="cardresult",
            name="spread",
            field=models.JSONField(
                default=dict,
                help_text="How many regulation holes the card scored each score on: "
                '{"strokes": holes}, as when it was scored.',
            ),
        ),
        migrations.AddField(
            model_name="cardresult",
            name="strokes",
            field=models.IntegerField(default=0, help_text="The card's total when it was scored."),
        ),
        migrations.CreateModel(
            name="PlayerFigures",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("played", models.PositiveIntegerField(default=0)),
                ("wins", models.PositiveIntegerField(default=0)),
                ("strokes", models.IntegerField(default=0, help_text="The cards' totals, summed.")),
                ("pairs", models.PositiveIntegerField(default=0)),
                ("pairs_holes", models.PositiveIntegerField(default=0)),
                (
                    "spread",
                    models.JSONField(
                        default=dict, help_text='Regulation holes by score: {"strokes": holes}.'
                    ),
                ),
                (
                    "rated_strokes",
                    models.IntegerField(
                        default=0,
                        help_text="The totals of the cards that move ratings and handicaps.",
                    ),
                ),
                (
                    "rated_holes",
                    models.PositiveIntegerField(
                        default=0, help_text="The regulation holes of those cards."
                    ),
                ),
                (
                    "league",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="player_figures",
                        to="leagues.league",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="league_figures",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "player figures",
                "constraints": [
                    models.UniqueConstraint(
                        fields=("league", "player"), name="unique_player_figures"
                    )
                ],
            },
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
