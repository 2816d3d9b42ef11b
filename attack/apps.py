from django.apps import AppConfig


class AttackConfig(AppConfig):
    name = "attack"
    verbose_name = "Blackjack Attack"

    def ready(self) -> None:
        from attack.adapter import KIND, NAME, AttackAdapter
        from skill_games.registry import SkillGame, register

        register(SkillGame(kind=KIND, name=NAME, adapter=AttackAdapter()))
