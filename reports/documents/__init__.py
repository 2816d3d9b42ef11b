"""Shift and daily reports as documents: what a filed report holds (`assembly`), apart from how
each format prints it (`filing_csv`, `machine_csv`, `pdf` with its `chart`), with the wording they
share (`wording`). The renderers take an assembled document (or, the machine CSV, the API's
payload) and touch no database. `reports.export` is the entry point for the API and the admin."""
