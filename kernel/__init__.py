"""The shared API kernel: problem+json errors, idempotent POSTs, API keys, base
authentication and permissions, schema helpers, gaming days. It knows no game."""
