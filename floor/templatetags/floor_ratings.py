"""`{% patron_ratings patron %}`: the ratings section of a patron's page (the page includes
`floor/patrons/_ratings.html`, which calls it), scoped like every ratings page to the tables the
signed-in user sees (`floor.ratings.scope.rated_table_ids`)."""

from typing import Any

from django import template

from floor.ratings.scope import how_ratings_are_cut, may_read_ratings, rated_table_ids
from patrons.models import Patron
from reports.ratings import get_patron_ratings

register = template.Library()


@register.inclusion_tag("floor/ratings/_patron_ratings.html", takes_context=True)
def patron_ratings(context: template.Context, patron: Patron) -> dict[str, Any]:
    request = context["request"]
    if not may_read_ratings(request.user):
        return {"hidden": True}
    table_ids = rated_table_ids(request.user)
    return {
        "ratings": get_patron_ratings(patron_number=patron.number, table_ids=table_ids),
        "scoped": table_ids is not None,
        **how_ratings_are_cut(),
    }
