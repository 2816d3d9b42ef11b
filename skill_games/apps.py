from django.apps import AppConfig


class SkillGamesConfig(AppConfig):
    name = "skill_games"
    verbose_name = "Skill games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from kernel.problems import answer_code_with

        # API.md "Skill games": a move after the clock ran out, or after the game's last move.
        answer_code_with("time_up", 409)
        answer_code_with("game_over", 409)
