from django.apps import AppConfig


class BonusTieConfig(AppConfig):
    name = "bonus_tie"
    verbose_name = "Tie bonus"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from bonus_tie.side_bet import TIE_BONUS_TABLES
        from casino.side_bets import register

        # The core settles the tie bonus through this registration; it never imports bonus_tie.
        register(TIE_BONUS_TABLES)
