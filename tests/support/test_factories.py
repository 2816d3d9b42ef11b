"""The factories that go through the provisioning services make real rows and refuse to build
unsaved ones, which would skip the services' invariants."""

import factory
import pytest

from casino.models import StaffProfile, Table
from tests.support.factories import ProvisionedTableFactory, StaffFactory

pytestmark = pytest.mark.django_db


def test_a_provisioned_table_and_a_staff_member_are_rows_made_by_the_services() -> None:
    provisioned = ProvisionedTableFactory.create(name="BJ-FX")
    staff = StaffFactory.create(role="pit_boss", pits=["Main pit"])

    assert Table.objects.filter(pk=provisioned.table.pk, name="BJ-FX").exists()
    assert provisioned.table.terminal.name == "BJ-FX-T1"
    assert StaffProfile.objects.get(user_id=staff.user.pk).role == "pit_boss"
    assert [pit.name for pit in staff.pits] == ["Main pit"]


@pytest.mark.parametrize("provisioning", [ProvisionedTableFactory, StaffFactory])
def test_they_refuse_to_build_without_the_database(provisioning: type[factory.Factory[object]]) -> None:
    with pytest.raises(TypeError, match="use create"):
        provisioning.build()
