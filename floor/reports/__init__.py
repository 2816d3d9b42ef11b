"""The console's Reports page: a shift, a gaming day and month to date, with the end-of-shift
checklist and the filing CSV and PDF."""
