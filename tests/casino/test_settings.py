"""Production-safe settings: a missing secret outside debug mode stops the service with a clear error."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_settings(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    # A DATABASE_URL that is never connected to: loading settings must not need a server.
    clean.update(
        {"DATABASE_URL": "postgres://nobody@127.0.0.1:1/none", "DJANGO_SETTINGS_MODULE": "config.settings"}
    )
    clean.update(env)
    code = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
    command = [sys.executable, "-c", code]
    return subprocess.run(command, cwd=ROOT, env=clean, capture_output=True, text=True, check=False)  # noqa: S603


def test_a_missing_secret_in_production_mode_is_a_clear_startup_error() -> None:
    result = load_settings()

    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in result.stderr


def test_debug_is_off_unless_asked() -> None:
    result = load_settings(DJANGO_SECRET_KEY="x" * 50)

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_debug_mode_runs_without_a_secret() -> None:
    result = load_settings(DJANGO_DEBUG="1")

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"
