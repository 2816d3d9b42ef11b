from django.apps import AppConfig


class SquaresConfig(AppConfig):
    name = "squares"
    verbose_name = "Blackjack Squares"

    def ready(self) -> None:
        from skill_games.registry import SkillGame, register
        from squares.adapter import KIND, NAME, SquaresAdapter

        register(SkillGame(kind=KIND, name=NAME, adapter=SquaresAdapter()))
