"""What a migration that moves models between apps needs besides Django's state operations:
the content types (and so the permissions and admin log entries on them) follow the models."""

from typing import Any


def relabel_content_types(apps: Any, *, models: tuple[str, ...], from_app: str, to_app: str) -> None:
    content_types = apps.get_model("contenttypes", "ContentType")
    for model in models:
        if not content_types.objects.filter(app_label=to_app, model=model).exists():
            content_types.objects.filter(app_label=from_app, model=model).update(app_label=to_app)
