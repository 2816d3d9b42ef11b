"""An owner's chain (a tournament's, `tournament:<id>`): named by the caller's owner key, which
the audit app checks without knowing the owner's app; its events go nowhere else."""

import pytest

from audit.chain import CHAIN_PATTERN, chain_for
from audit.models import AuditEvent

from .conftest import append


def test_the_owner_key_names_the_chain_whatever_the_table() -> None:
    assert chain_for(table_id=None, owner="tournament:3") == "tournament:3"
    assert chain_for(table_id=7, owner="tournament:3") == "tournament:3"
    assert chain_for(table_id=7) == "table:7"
    assert CHAIN_PATTERN.match("tournament:12")
    for bad in ("tournament:0", "tournament:", "table:3", "casino", "tournament:1 ", "tournaments:1"):
        with pytest.raises(ValueError, match="tournament:<id>"):
            chain_for(table_id=None, owner=bad)


@pytest.mark.django_db
def test_two_tournaments_chains_and_the_casino_chain_number_their_events_apart() -> None:
    append(chain_owner="tournament:1")
    append()
    append(chain_owner="tournament:2")
    append(chain_owner="tournament:1")
    seqs = list(AuditEvent.objects.order_by("id").values_list("chain", "seq"))
    assert seqs == [("tournament:1", 1), ("casino", 1), ("tournament:2", 1), ("tournament:1", 2)]
    with pytest.raises(ValueError, match="tournament:<id>"):
        append(chain_owner="table:1")
