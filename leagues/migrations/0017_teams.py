# Team leagues: the league's team settings, teams, their members and night line-ups.

import django.core.validators
import django.db.models.deletion
import games.text
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('leagues', '0016_night_board'),
    ]

    operations = [
        migrations.AddField(
            model_name='league',
            name='team_counted',
            field=models.PositiveSmallIntegerField(default=2, help_text="For the best n: how many line-up members' points count each night.", validators=[django.core.validators.MaxValueValidator(4)], verbose_name='n: members whose points count'),
        ),
        migrations.AddField(
            model_name='league',
            name='team_score',
            field=models.CharField(choices=[('sum', "The sum of every line-up member's points"), ('best', "The sum of the best n line-up members' points")], default='sum', max_length=4, verbose_name="a team's night score"),
        ),
        migrations.AddField(
            model_name='league',
            name='team_size',
            field=models.PositiveSmallIntegerField(default=0, help_text='0: not a team league. 2 to 4: the most members a team has, and so the most who play for it a night.', validators=[django.core.validators.MaxValueValidator(4)], verbose_name='team size'),
        ),
        migrations.CreateModel(
            name='Team',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=60, validators=[games.text.validate_shown])),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('league', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='teams', to='leagues.league')),
            ],
            options={
                'ordering': ['league', 'name'],
                'constraints': [models.UniqueConstraint(fields=('league', 'name'), name='unique_team_name')],
            },
        ),
        migrations.CreateModel(
            name='LineUp',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('set_at', models.DateTimeField(auto_now=True)),
                ('night', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='line_ups', to='leagues.leaguenight')),
                ('players', models.ManyToManyField(related_name='+', to=settings.AUTH_USER_MODEL)),
                ('set_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='line_ups', to='leagues.team')),
            ],
            options={
                'ordering': ['night', 'team'],
                'constraints': [models.UniqueConstraint(fields=('team', 'night'), name='one_line_up_per_night')],
            },
        ),
        migrations.CreateModel(
            name='TeamMember',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('is_captain', models.BooleanField(default=False)),
                ('league', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='leagues.league')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='team_memberships', to=settings.AUTH_USER_MODEL)),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='members', to='leagues.team')),
            ],
            options={
                'ordering': ['team', '-is_captain', 'player__username'],
                'constraints': [models.UniqueConstraint(fields=('league', 'player'), name='one_team_per_league'), models.UniqueConstraint(condition=models.Q(('is_captain', True)), fields=('team',), name='one_captain_per_team')],
            },
        ),
    ]
