"""League night tables seated before games.Table had `seats_assigned` get it now."""

from django.db import migrations


def assign_night_seats(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    NightTable = apps.get_model("leagues", "NightTable")
    Table.objects.filter(
        pk__in=NightTable.objects.values("table_id"), kind="live"
    ).update(seats_assigned=True)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0003_table_seats_assigned"),
        ("leagues", "0003_correction_removes_playoff_holes"),
    ]

    operations = [
        migrations.RunPython(assign_night_seats, migrations.RunPython.noop),
    ]
