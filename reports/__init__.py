"""Shift and gaming-day reports (win, drop, hold), player ratings and the filing documents: the
figures from the ledger and the rounds, stored per table and shift, rendered as JSON, CSV and PDF."""
