"""Shift reports: the figures (database aggregates), the house edges behind theoretical win,
the reads with pit and casino rollups, and the CSV and PDF exports. The write path that stores
them is `casino.services.reports`; the Celery tasks are in `casino.tasks`."""
