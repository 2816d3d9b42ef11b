"""`make run`: migrate, load the demo once, then run the web server, a Celery worker and
Celery beat until interrupted, and stop them (and the embedded database) cleanly."""

import os
import signal
import subprocess
import sys
import time
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from casino.management.commands.seed_demo import load_demo_credentials


class Command(BaseCommand):
    help = "Run the whole service: web server, Celery worker and Celery beat."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bind", default=os.environ.get("BIND", "127.0.0.1:8000"))
        parser.add_argument("--web-workers", type=int, default=None, help="default: cores + 1")
        parser.add_argument("--web-threads", type=int, default=None, help="default: 4 per worker")

    def handle(self, *args: Any, **options: Any) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        call_command("seed_demo")
        bin_dir = os.path.dirname(sys.executable)
        commands = {
            "web": [os.path.join(bin_dir, "gunicorn"), "-c", str(settings.BASE_DIR / "config" / "gunicorn.py"),
                    "config.wsgi", "--bind", options["bind"],
                    *(["--workers", str(options["web_workers"])] if options["web_workers"] else []),
                    *(["--threads", str(options["web_threads"])] if options["web_threads"] else [])],
            "worker": [os.path.join(bin_dir, "celery"), "-A", "config.celery", "worker", "--loglevel", "INFO",
                       "--concurrency", "2"],
            "beat": [os.path.join(bin_dir, "celery"), "-A", "config.celery", "beat", "--loglevel", "INFO",
                     "--schedule", settings.CELERY_BEAT_SCHEDULE_FILENAME],
        }  # fmt: skip
        children = {name: subprocess.Popen(argv, cwd=settings.BASE_DIR) for name, argv in commands.items()}  # noqa: S603
        self._announce(options["bind"])
        stopping = False

        def stop(signum: int, frame: Any) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        try:
            while not stopping:
                for name, child in children.items():
                    if child.poll() is not None:
                        self.stderr.write(f"{name} exited with {child.returncode}; stopping the service.")
                        stopping = True
                time.sleep(0.5)
        finally:
            for child in children.values():
                if child.poll() is None:
                    child.send_signal(signal.SIGTERM)
            for child in children.values():
                try:
                    child.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    child.kill()
            self.stdout.write("Service stopped.")

    def _announce(self, bind: str) -> None:
        base = f"http://{bind}"
        credentials = load_demo_credentials() or {}
        lines = [
            "",
            f"Casino back office is starting at {base}",
            f"  Admin site:   {base}/admin/",
            f"  API docs:     {base}/api/v1/docs/",
            f"  Health:       {base}/healthz",
            "  Demo logins (admin site and API tokens):",
        ]
        for staff in credentials.get("staff", []):
            lines.append(
                f"    {staff['role']:<17} {staff['username']} / {staff['password']}  token {staff['token']}"
            )
        for table in credentials.get("tables", []):
            lines.append(
                f"  Table {table['table']}: terminal token {table['terminal_token']}  "
                f"dealer badge {table['dealer']['badge']} PIN {table['dealer']['pin']}"
            )
        lines.append("Press Ctrl-C to stop.\n")
        self.stdout.write("\n".join(lines))
