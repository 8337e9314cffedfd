from django.db import migrations, models


def keep_the_first_rematch(apps, schema_editor):
    """A table with several rematches (two asked at once) keeps the first as its
    rematch; the others stay as tables of their own, linked to nothing."""
    Table = apps.get_model("games", "Table")
    first: dict[int, int] = {}
    for pk, old in (
        Table.objects.filter(rematch_of__isnull=False)
        .order_by("created_at", "pk")
        .values_list("pk", "rematch_of")
    ):
        first.setdefault(old, pk)
    Table.objects.filter(rematch_of__isnull=False).exclude(pk__in=first.values()).update(
        rematch_of=None
    )


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0007_hole_review"),
    ]

    operations = [
        migrations.RunPython(keep_the_first_rematch, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.UniqueConstraint(fields=("rematch_of",), name="unique_rematch"),
        ),
    ]
