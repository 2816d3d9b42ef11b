from django.apps import AppConfig


class BlackjackConfig(AppConfig):
    name = "blackjack"
    verbose_name = "Tie-bonus blackjack"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from blackjack.engine.round import NotReadyToSettleError
        from blackjack.engine.rules import RULE_CHANGE_FIELDS, check_house_rule
        from blackjack.models import OPEN_ROUND_STATES, Round
        from blackjack.selectors import plays_on_floor, table_of_round, table_play
        from casino.engine.seats import SEAT_NUMBERS
        from casino.games import Game, RoundSearch, register
        from casino.models import GameKind, Table
        from kernel.problems import answer_code_with

        # A rule error, which API.md answers with 409 rather than 422.
        answer_code_with(NotReadyToSettleError.code, 409)

        def blackjack_round_open(table: Table) -> bool:
            return Round.objects.filter(table=table, state__in=OPEN_ROUND_STATES).exists()

        register(
            Game(
                kind=GameKind.TIE_BONUS,
                code="tie_bonus",
                seats=SEAT_NUMBERS,
                name="tie-bonus blackjack",
                rule_fields=RULE_CHANGE_FIELDS,
                has_play_in_progress=blackjack_round_open,
                check_rule=check_house_rule,
                floor_label="Round",
                plays_on_floor=plays_on_floor,
                round_search=RoundSearch(
                    kind="round",
                    label="Blackjack round",
                    path="/floor/rounds/{}/",
                    table_of_round=table_of_round,
                ),
                handles_money=True,
                table_template="floor/operations/_play_tie_bonus.html",
                table_play=table_play,
            )
        )
