"""A Django database backend that starts the embedded PostgreSQL server on first connection.

Used when `DATABASE_URL` is not set (DESIGN.md, principle 8). The server starts
when a process first connects, not when settings are imported, so `manage.py
--help` or a command that needs no database starts nothing.
"""
