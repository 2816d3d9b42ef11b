from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.decorators.http import require_http_methods, require_safe

from floor.sign_in import StaffLoginView, StaffPasswordChangeDoneView, StaffPasswordChangeView

app_name = "floor"

urlpatterns = [
    path("login/", StaffLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # The method is checked before the sign-in, as on every console page.
    path(
        "password/",
        require_http_methods(["GET", "HEAD", "POST", "OPTIONS"])(StaffPasswordChangeView.as_view()),
        name="password_change",
    ),
    path(
        "password/changed/", require_safe(StaffPasswordChangeDoneView.as_view()), name="password_change_done"
    ),
    path("", include("floor.live.urls")),
    path("tables/", include("floor.operations.urls")),
    path("rule-changes/", include("floor.rule_changes.urls")),
    path("rounds/", include("floor.rounds.urls")),
    path("games/", include("floor.games.urls")),
    path("patrons/", include("floor.patrons.urls")),
    path("cage/", include("floor.cage.urls")),
    path("compliance/", include("floor.compliance.urls")),
    path("ratings/", include("floor.ratings.urls")),
    path("reports/", include("floor.reports.urls")),
    path("count/", include("floor.count.urls")),
    path("tournaments/", include("floor.tournaments.urls")),
]
