"""Settings as a deployment loads them: `config.settings` in a process of its own, with only the
environment given (none of the test run's `DJANGO_`, `CASINO_` or `DATABASE_URL` variables)."""

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def settings_loaded(names: Sequence[str], **env: str) -> dict[str, Any]:
    """The values of the settings `names` (JSON-serializable ones) under the environment `env`."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "CASINO_"))}
    clean.update(
        {"DATABASE_URL": "postgres://nobody@127.0.0.1:1/none", "DJANGO_SETTINGS_MODULE": "config.settings"}
    )
    clean.update(env)
    code = (
        "import json, django; django.setup(); from django.conf import settings; "
        f"print(json.dumps({{name: getattr(settings, name) for name in {list(names)!r}}}))"
    )
    result = subprocess.run(  # noqa: S603
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    loaded: dict[str, Any] = json.loads(result.stdout)
    return loaded
