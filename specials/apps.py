from django.apps import AppConfig


class SpecialsConfig(AppConfig):
    name = "specials"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from casino.engine.seats import SEAT_NUMBERS
        from casino.engine.shoe import check_shoe_rule
        from casino.games import Game, RoundSearch, register
        from casino.models import GameKind, Table
        from specials.models import RoundState, SpecialsRound
        from specials.selectors import plays_on_floor, table_of_round, table_play

        def round_open(table: Table) -> bool:
            return (
                SpecialsRound.objects.filter(match__table=table).exclude(state=RoundState.FINISHED).exists()
            )

        # The game plays none of blackjack's house rules, only its shoe's, and for points, not money.
        register(
            Game(
                kind=GameKind.SPECIAL_POINTS,
                code="specials",
                seats=SEAT_NUMBERS,
                name="special-card points",
                rule_fields=("decks", "penetration_percent"),
                has_play_in_progress=round_open,
                check_rule=check_shoe_rule,
                floor_label="Match",
                plays_on_floor=plays_on_floor,
                round_search=RoundSearch(
                    kind="specials",
                    label="Special-card round",
                    path="/floor/rounds/specials/{}/",
                    table_of_round=table_of_round,
                ),
                handles_money=False,
                table_template="floor/operations/_play_special_points.html",
                table_play=table_play,
            )
        )
