"""The project shell: settings, URLs, the Celery app, WSGI/ASGI entry points, health."""

# Loaded with Django so that @shared_task binds to this app (the usual Django/Celery layout).
from config.celery import app as celery_app

__all__ = ["celery_app"]
