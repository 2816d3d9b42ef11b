"""Ledger invariants, checked by `manage.py check_ledger` and after the race tests.

Each check is one SQL query that returns the rows breaking it, so the database
does the work however large the ledger grows.
"""

from dataclasses import dataclass

from django.db import connection


@dataclass(frozen=True)
class Violation:
    check: str
    detail: str


CHECKS: dict[str, str] = {
    "every transaction balances": """
        SELECT t.id, COALESCE(SUM(e.amount_cents), 0), COUNT(e.id)
          FROM casino_ledgertransaction t LEFT JOIN casino_ledgerentry e ON e.transaction_id = t.id
         GROUP BY t.id HAVING COALESCE(SUM(e.amount_cents), 0) <> 0 OR COUNT(e.id) < 2
    """,
    "no zero entries": "SELECT id, transaction_id, 0 FROM casino_ledgerentry WHERE amount_cents = 0",
    "stakes of a round match its wagers": """
        SELECT r.id, COALESCE(w.total, 0), COALESCE(l.total, 0)
          FROM casino_round r
          LEFT JOIN (SELECT round_id, SUM(amount_cents) total FROM casino_wager GROUP BY round_id) w
                 ON w.round_id = r.id
          LEFT JOIN (SELECT t.round_id, SUM(e.amount_cents) total
                       FROM casino_ledgertransaction t
                       JOIN casino_ledgerentry e ON e.transaction_id = t.id
                       JOIN casino_account a ON a.id = e.account_id
                      WHERE t.kind = 'wager' AND a.kind = 'wagers' GROUP BY t.round_id) l
                 ON l.round_id = r.id
         WHERE COALESCE(w.total, 0) <> COALESCE(l.total, 0)
    """,
    "a settled round is paid exactly once, as settled": """
        SELECT r.id, s.paid_cents, COALESCE(p.paid, 0)
          FROM casino_round r
          JOIN casino_settlement s ON s.round_id = r.id
          LEFT JOIN (SELECT t.round_id, SUM(e.amount_cents) paid, COUNT(DISTINCT t.id) n
                       FROM casino_ledgertransaction t
                       JOIN casino_ledgerentry e ON e.transaction_id = t.id
                       JOIN casino_account a ON a.id = e.account_id
                      WHERE t.kind = 'payout' AND a.kind = 'patrons' GROUP BY t.round_id) p
                 ON p.round_id = r.id
         WHERE r.state <> 'settled' OR COALESCE(p.paid, 0) <> s.paid_cents OR COALESCE(p.n, 0) > 1
    """,
    "settlement lines add up": """
        SELECT s.round_id, s.paid_cents, COALESCE(SUM(l.paid_cents), 0)
          FROM casino_settlement s LEFT JOIN casino_settlementline l ON l.settlement_id = s.id
         GROUP BY s.id HAVING s.paid_cents <> COALESCE(SUM(l.paid_cents), 0)
                          OR s.wagered_cents <> COALESCE(SUM(l.amount_cents), 0)
    """,
    "no stake is left in play for a closed round": """
        SELECT t.round_id, SUM(e.amount_cents), 0
          FROM casino_ledgertransaction t
          JOIN casino_ledgerentry e ON e.transaction_id = t.id
          JOIN casino_account a ON a.id = e.account_id
          JOIN casino_round r ON r.id = t.round_id
         WHERE a.kind = 'wagers' AND r.state IN ('settled', 'void')
         GROUP BY t.round_id HAVING SUM(e.amount_cents) <> 0
    """,
    "a settled or void round has no second payout or void": """
        SELECT t.round_id, COUNT(*), 0 FROM casino_ledgertransaction t
         WHERE t.kind IN ('payout', 'void') GROUP BY t.round_id HAVING COUNT(*) > 1
    """,
}


def find_violations() -> list[Violation]:
    violations = []
    with connection.cursor() as cursor:
        for name, sql in CHECKS.items():
            cursor.execute(sql)
            for row in cursor.fetchall():
                violations.append(Violation(check=name, detail=", ".join(str(value) for value in row)))
    return violations
