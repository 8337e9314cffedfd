"""Every paper table of a night gets its card's short code, as seating now gives one:
the card page no longer makes it on its first look."""

import secrets

from django.db import migrations

# The codes' characters and length as they were drawn when this migration was written.
ALPHABET = "ACDEFHJKMNPQRTUVWXY3479"
LENGTH = 6


def give_codes(apps, schema_editor):
    NightTable = apps.get_model("leagues", "NightTable")
    TableReport = apps.get_model("leagues", "TableReport")
    taken = set(TableReport.objects.values_list("code", flat=True))
    without = NightTable.objects.filter(table__kind="hand", report__isnull=True)
    reports = []
    for night_table in without.order_by("pk"):
        code = ""
        while not code or code in taken:
            code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        taken.add(code)
        reports.append(TableReport(night_table=night_table, code=code))
    TableReport.objects.bulk_create(reports, batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0018_events"),
    ]

    operations = [
        migrations.RunPython(give_codes, migrations.RunPython.noop),
    ]
