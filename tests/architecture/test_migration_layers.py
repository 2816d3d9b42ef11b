"""Migrations point down the app layers too: a string foreign key ("casino.Table") slips past the
import contracts, so each app's migrations may depend only on apps at or below its own layer of the
"Apps import one way" contract (pyproject.toml), and on Django's own apps."""

import tomllib
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.db.migrations.loader import MigrationLoader


def app_layers() -> dict[str, int]:
    config = tomllib.loads((Path(settings.BASE_DIR) / "pyproject.toml").read_text())
    contract = next(
        c for c in config["tool"]["importlinter"]["contracts"] if c["name"].startswith("Apps import one way")
    )
    return {app.strip(): depth for depth, layer in enumerate(contract["layers"]) for app in layer.split("|")}


def test_every_app_with_migrations_has_a_layer() -> None:
    loader = MigrationLoader(None, ignore_no_migrations=True)
    project = {
        config.label for config in apps.get_app_configs() if Path(config.path).parent == settings.BASE_DIR
    }
    with_migrations = {app for app, _ in loader.disk_migrations} & project
    assert {"casino", "audit", "kernel"} <= with_migrations <= set(app_layers())


# Upward dependencies, each named with its cause. The blackjack round records the paytable it was
# dealt under (Round.paytable -> bonus_tie.PaytableVersion): the side bet's terms sit above the
# round they settle, which the round names by string only. The ledger's transactions name the
# round they pay (LedgerTransaction.round -> blackjack.Round), so the casino app's state moves
# wait for the blackjack app's: the round's models (0017), the patron its seats name (0018). The
# others only order the first migrations.
KNOWN_UPWARD = [
    "audit.0001_initial -> bonus_tie.0002_default_paytable",
    "audit.0001_initial -> casino.0002_ledger_guards",
    "blackjack.0001_initial -> bonus_tie.0004_version_one_records",
    "casino.0001_initial -> bonus_tie.0001_initial",
    "casino.0017_round_models_to_blackjack -> blackjack.0001_initial",
    "casino.0018_money_reports_patrons_to_their_apps -> blackjack.0002_patron_moved",
    "kernel.0001_initial -> casino.0005_ledger_shift_index",
]


def test_migrations_depend_only_on_apps_at_or_below_their_layer() -> None:
    layers = app_layers()
    loader = MigrationLoader(None, ignore_no_migrations=True)
    upward = []
    for (app, name), migration in loader.disk_migrations.items():
        if app not in layers:
            continue
        for dependency_app, dependency in migration.dependencies:
            if dependency_app in layers and layers[dependency_app] < layers[app]:
                upward.append(f"{app}.{name} -> {dependency_app}.{dependency}")
    assert sorted(upward) == KNOWN_UPWARD
