"""Write paths: one function per use case, each one transaction (STYLE.md §7).

The HTTP layer opens the request's durable transaction (so that the idempotency
record commits with the change); services are plain `atomic` blocks inside it,
and are durable on their own when a command or a task calls them.
"""
