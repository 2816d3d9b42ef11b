from django.apps import AppConfig


class Make21Config(AppConfig):
    name = "make21"
    verbose_name = "Make 21"

    def ready(self) -> None:
        from make21.adapter import KIND, NAME, Make21Adapter
        from skill_games.registry import SkillGame, register

        register(SkillGame(kind=KIND, name=NAME, adapter=Make21Adapter()))
