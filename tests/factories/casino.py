"""Typed factories for the casino floor. They build valid rows only."""

import factory
from factory.django import DjangoModelFactory

from casino.models import Casino, Dealer, Pit, Table
from kernel.keys import hash_pin


class CasinoFactory(DjangoModelFactory[Casino]):
    class Meta:
        model = Casino
        django_get_or_create = ("name",)
        skip_postgeneration_save = True

    name = "Test casino"


class PitFactory(DjangoModelFactory[Pit]):
    class Meta:
        model = Pit
        skip_postgeneration_save = True

    casino = factory.SubFactory(CasinoFactory)
    name = factory.Sequence(lambda n: f"Pit {n}")


class TableFactory(DjangoModelFactory[Table]):
    class Meta:
        model = Table
        skip_postgeneration_save = True

    pit = factory.SubFactory(PitFactory)
    name = factory.Sequence(lambda n: f"BJ-{n:02d}")
    decks = 6


class DealerFactory(DjangoModelFactory[Dealer]):
    class Meta:
        model = Dealer
        skip_postgeneration_save = True

    badge = factory.Sequence(lambda n: f"B{n:05d}")
    name = factory.Faker("name")
    pin_hash = factory.LazyFunction(lambda: hash_pin("1234"))
