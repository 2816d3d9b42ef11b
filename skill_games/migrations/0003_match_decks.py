"""A game is dealt from one deck per game of its match (Make 21 plays `games` games; Attack and
Squares one): the row's one deck order, salt and commitment become arrays of them, and a count of
the decks revealed so far (each as its game ends). Existing games keep their one deck, revealed if
it was.

Reversible while every game has one deck; a match of more decks cannot be put back in one."""

import django.contrib.postgres.fields
from django.db import migrations, models

# The guard of 0002 refuses any change to a committed deal: it is set aside while the deal moves
# from one set of columns to the other, in this one transaction.
FILL = """
ALTER TABLE skill_games_game DISABLE TRIGGER skill_games_game_checked;
UPDATE skill_games_game
   SET decks = ARRAY[deck_order],
       salts = ARRAY[salt_hex],
       commitments = ARRAY[commitment],
       decks_revealed = CASE WHEN revealed_at IS NULL THEN 0 ELSE 1 END;
ALTER TABLE skill_games_game ENABLE TRIGGER skill_games_game_checked;
"""

UNFILL = """
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM skill_games_game WHERE cardinality(salts) <> 1) THEN
        RAISE EXCEPTION 'a game dealt from more than one deck cannot go back to one deck';
    END IF;
END $$;
ALTER TABLE skill_games_game DISABLE TRIGGER skill_games_game_checked;
UPDATE skill_games_game
   SET deck_order = ARRAY(SELECT unnest(decks)),
       salt_hex = salts[1],
       commitment = commitments[1];
ALTER TABLE skill_games_game ENABLE TRIGGER skill_games_game_checked;
"""


def _cards() -> django.contrib.postgres.fields.ArrayField:
    return django.contrib.postgres.fields.ArrayField(base_field=models.CharField(max_length=2), size=52)


def _hexes(*, null: bool) -> django.contrib.postgres.fields.ArrayField:
    return django.contrib.postgres.fields.ArrayField(base_field=models.CharField(max_length=64), null=null)


class Migration(migrations.Migration):
    dependencies = [("skill_games", "0002_log_guards")]

    operations = [
        migrations.RemoveConstraint(model_name="game", name="skill_game_revealed_once_over"),
        migrations.AddField(
            model_name="game",
            name="decks",
            field=django.contrib.postgres.fields.ArrayField(base_field=_cards(), null=True),
        ),
        migrations.AddField(model_name="game", name="salts", field=_hexes(null=True)),
        migrations.AddField(model_name="game", name="commitments", field=_hexes(null=True)),
        migrations.AddField(
            model_name="game", name="decks_revealed", field=models.PositiveSmallIntegerField(default=0)
        ),
        migrations.AlterField(
            model_name="game",
            name="deck_order",
            field=django.contrib.postgres.fields.ArrayField(
                base_field=models.CharField(max_length=2), size=52, null=True
            ),
        ),
        migrations.AlterField(
            model_name="game", name="salt_hex", field=models.CharField(max_length=64, null=True)
        ),
        migrations.AlterField(
            model_name="game", name="commitment", field=models.CharField(max_length=64, null=True)
        ),
        migrations.RunSQL(FILL, UNFILL),
        migrations.RemoveField(model_name="game", name="deck_order"),
        migrations.RemoveField(model_name="game", name="salt_hex"),
        migrations.RemoveField(model_name="game", name="commitment"),
        migrations.AlterField(
            model_name="game",
            name="decks",
            field=django.contrib.postgres.fields.ArrayField(base_field=_cards()),
        ),
        migrations.AlterField(model_name="game", name="salts", field=_hexes(null=False)),
        migrations.AlterField(model_name="game", name="commitments", field=_hexes(null=False)),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("commitments__len", models.F("salts__len")),
                    ("decks__len", models.F("salts__len")),
                    ("salts__len__gte", 1),
                ),
                name="skill_game_deal_per_deck",
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(("decks_revealed__lte", models.F("salts__len"))),
                name="skill_game_reveals_dealt_decks",
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("revealed_at__isnull", True),
                    models.Q(("decks_revealed", models.F("salts__len")), ("state", "finished")),
                    _connector="OR",
                ),
                name="skill_game_revealed_once_over",
            ),
        ),
    ]
