from django.db import migrations, models


def fill_username_keys(apps, schema_editor):
    """Each account's key from its username. Accounts whose names were equal but for
    case or form (possible on SQLite) all keep signing in as before: the oldest holds
    the plain key, the others a key marked with their id, until they change name."""
    from leagues.usernames import username_key

    Player = apps.get_model("leagues", "Player")
    taken: set[str] = set()
    for player in Player.objects.order_by("date_joined", "pk").only("pk", "username"):
        key = username_key(player.username)
        if key in taken:
            key = f"{key}#{player.pk}"
        taken.add(key)
        Player.objects.filter(pk=player.pk).update(username_key=key)


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0010_league_stand_in_level"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="username_key",
            field=models.CharField(editable=False, max_length=150, null=True),
        ),
        migrations.RunPython(fill_username_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="username_key",
            field=models.CharField(
                editable=False,
                help_text="The username casefolded and NFKC-normalised: two names equal so are one.",
                max_length=150,
                unique=True,
            ),
        ),
    ]
