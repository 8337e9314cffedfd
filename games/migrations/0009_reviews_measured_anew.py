"""Reviews stored before decisions were judged again on fresh deals counted luck as
strokes given away: they are dropped, and each is worked out anew when next opened."""

from django.db import migrations


def drop_old_reviews(apps, schema_editor):
    apps.get_model("games", "HoleReview").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0008_unique_rematch")]

    operations = [migrations.RunPython(drop_old_reviews, migrations.RunPython.noop)]
