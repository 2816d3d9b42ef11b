"""Test settings: the main module with a few values overridden."""

import os

os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key")

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CELERY_TASK_ALWAYS_EAGER = False
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # noqa: F405
# Parallel runs against one server (several checkouts, several developers) each name their own.
DATABASES["default"]["TEST"] = {"NAME": env.str("TEST_DATABASE_NAME", default="test_casino")}  # noqa: F405
