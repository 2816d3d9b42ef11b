from django.db import migrations, models


def fill_opening(apps, schema_editor):  # type: ignore[no-untyped-def]
    Round = apps.get_model("casino", "Round")
    Wager = apps.get_model("casino", "Wager")
    RoundSeat = apps.get_model("casino", "RoundSeat")
    for round_ in Round.objects.all().iterator():
        players = {s.seat: s.player for s in RoundSeat.objects.filter(round_id=round_.pk)}
        seats: dict[int, dict] = {}
        for wager in Wager.objects.filter(round_id=round_.pk, source="open").order_by("pk"):
            seat = seats.setdefault(
                wager.seat,
                {
                    "seat": wager.seat,
                    "player": players.get(wager.seat, ""),
                    "primary_cents": 0,
                    "bonus_cents": {},
                },
            )
            if wager.kind == "primary":
                seat["primary_cents"] = wager.amount_cents
            else:
                seat["bonus_cents"][wager.kind] = wager.amount_cents
        round_.opening = [seats[number] for number in sorted(seats)]
        round_.save(update_fields=["opening"])


class Migration(migrations.Migration):
    dependencies = [("casino", "0006_idempotency_moved_to_kernel")]

    operations = [
        migrations.AddField(model_name="round", name="opening", field=models.JSONField(default=list)),
        migrations.RunPython(fill_opening, migrations.RunPython.noop),
    ]
