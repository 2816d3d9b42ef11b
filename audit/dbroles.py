"""SQL that lets the application run under a role that can only INSERT and SELECT the audit tables.

Run it as the owner of the tables (the role that runs `manage.py migrate`) after
every migration: `python manage.py audit_grants casino_app | psql ...`.
"""

import re

from django.apps import apps

_ROLE = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


_APPEND_ONLY_APPS: set[str] = {"audit"}


def register_append_only_app(label: str) -> None:
    """Another app whose every table is append-only too (the configuration history registers itself)."""
    _APPEND_ONLY_APPS.add(label)


def append_only_tables() -> list[str]:
    """Every table of the audit app (events, anchors, checkpoints) and of the apps registered here,
    but their working tables (`append_only = False` on the model, e.g. the refusal tally)."""
    return sorted(
        model._meta.db_table
        for label in _APPEND_ONLY_APPS
        for model in apps.get_app_config(label).get_models()
        if not model._meta.proxy and getattr(model, "append_only", True)
    )


def grant_sql(role: str, *, schema: str = "public") -> str:
    if not _ROLE.match(role) or not _ROLE.match(schema):
        raise ValueError("role and schema must be plain lowercase SQL identifiers")
    tables = ", ".join(f"{schema}.{table}" for table in append_only_tables())
    return "\n".join(
        [
            f"-- The application role {role}: no superuser, owns nothing, so it can neither disable",
            "-- triggers nor bypass privileges. Run as the owner of the tables, after every migrate.",
            f"GRANT USAGE ON SCHEMA {schema} TO {role};",
            f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {role};",
            f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema} TO {role};",
            "-- The audit trail: INSERT and SELECT only.",
            f"REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON {tables} FROM {role};",
            "",
        ]
    )
