"""SQL statements per terminal call, by endpoint, for a checkout.

    .venv/bin/python bench/query_counts.py [--project-dir DIR] [--rounds 30] [--database-url URL]

Plays `--rounds` rounds of 3 seats on two tables with electronic shoes through Django's test
client in-process (the helpers of `bench/settle_vs_raw.py`: provisioning by the project's own
commands, a scratch database created, migrated and dropped), counts the statements each call
sends (BEGIN and COMMIT left out) and prints, per endpoint, the median, least and most. Cards
are dealt by the shoe here, so no card call is counted: `tests/casino/api/test_query_counts.py`
bounds those on a reported shoe.
"""

import argparse
import collections
import os
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

import settle_vs_raw as helpers


def main() -> None:
    here = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--project-dir", type=Path, default=here, help="checkout to measure (default: %(default)s)"
    )
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument(
        "--database-url", default=None, help=f"default: {helpers.DEFAULT_SERVER}/bench_queries_<pid>"
    )
    args = parser.parse_args()
    project = args.project_dir.resolve()
    if not (project / "manage.py").exists():
        parser.error(f"no manage.py in {project}")
    url = args.database_url or f"{helpers.DEFAULT_SERVER}/bench_queries_{os.getpid()}"
    with tempfile.TemporaryDirectory() as broker, helpers.scratch_database(url, keep=False):
        helpers.setup_django(project, url, broker)
        from django.core.management import call_command
        from django.db import connection
        from django.test import Client, override_settings

        call_command("migrate", verbosity=0)
        with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
            counts = play(args.rounds, Client(HTTP_HOST="localhost"), connection)
        connection.close()
    print(f"{project}: SQL statements per call (BEGIN and COMMIT left out), {args.rounds} rounds of 3 seats")
    for endpoint, numbers in sorted(counts.items()):
        print(
            f"  {endpoint:<16} calls {len(numbers):>4}   median {statistics.median(numbers):>4.0f}"
            f"   least {min(numbers):>3}   most {max(numbers):>3}"
        )


def play(rounds: int, client: Any, connection: Any) -> dict[str, list[int]]:
    from django.test.utils import CaptureQueriesContext

    counts: dict[str, list[int]] = collections.defaultdict(list)
    floor = helpers.provision(2, "queries")
    helpers.sign_in(floor, client)
    for seat in floor.tables:
        api = seat.api
        assert api is not None  # noqa: S101
        post = api.post

        def counted(path: str, body: Any = None, post: Any = post) -> tuple[int, Any]:
            with CaptureQueriesContext(connection) as queries:
                answer = post(path, body)
            endpoint = path.rstrip("/").rsplit("/", 1)[-1]
            endpoint = "open (3 seats)" if endpoint == "rounds" else endpoint
            counts[endpoint].append(
                sum(q["sql"] not in ("BEGIN", "COMMIT") for q in queries.captured_queries)
            )
            return answer

        api.post = counted  # type: ignore[method-assign]
    rng = random.Random(3)
    for number in range(rounds):
        seat = floor.tables[number % len(floor.tables)]
        prepared = helpers.prepare_round(seat, rng, 3)
        helpers._api_settle(seat, prepared)()
    return counts


if __name__ == "__main__":
    main()
