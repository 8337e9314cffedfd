"""A card's stored figures keep the pairs it scored at a live table, so that a player's
page sums them rather than reading every live hole of their history: the figures stored
already get theirs from their tables' holes, as `standings.services.pairs_made` counts
them."""

from django.db import migrations, models

from games.engine import scoring_pairs

#: Regulation holes, as when this migration was written.
HOLES = 9
#: Tables read at once.
BATCH = 200


def count_pairs(apps, schema_editor):
    CardResult = apps.get_model("leagues", "CardResult")
    Hole = apps.get_model("games", "Hole")
    results = CardResult.objects.filter(scorecard__table__kind="live").values_list(
        "pk", "scorecard__table_id", "scorecard__position"
    )
    by_table = {}
    for pk, table_id, position in results:
        by_table.setdefault(table_id, []).append((pk, position))
    tables = sorted(by_table)
    for start in range(0, len(tables), BATCH):
        made = {}
        holes = Hole.objects.filter(table_id__in=tables[start : start + BATCH], number__lte=HOLES)
        for table_id, seats, state in holes.values_list("table_id", "seat_positions", "state"):
            state = state or {}
            if state.get("phase") != "over" or "layouts" not in state:
                continue
            for pk, position in by_table[table_id]:
                if position not in seats:
                    continue
                try:
                    layout = state["layouts"][seats.index(position)]
                    pairs = len(scoring_pairs(state["variant"], layout))
                except (KeyError, ValueError):
                    continue
                before = made.get(pk, (0, 0))
                made[pk] = (before[0] + pairs, before[1] + 1)
        for pk, (pairs, holes_counted) in made.items():
            CardResult.objects.filter(pk=pk).update(pairs=pairs, pairs_holes=holes_counted)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_turn_based_tables"),
        ("leagues", "0029_online_rounds"),
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
        migrations.RunPython(count_pairs, migrations.RunPython.noop),
    ]
