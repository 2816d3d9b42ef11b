from django.contrib.auth import views as auth_views
from django.urls import include, path

from floor.sign_in import StaffLoginView, StaffPasswordChangeDoneView, StaffPasswordChangeView

app_name = "floor"

urlpatterns = [
    path("login/", StaffLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", StaffPasswordChangeView.as_view(), name="password_change"),
    path("password/changed/", StaffPasswordChangeDoneView.as_view(), name="password_change_done"),
    path("", include("floor.live.urls")),
    path("tables/", include("floor.operations.urls")),
    path("rule-changes/", include("floor.rule_changes.urls")),
    path("rounds/", include("floor.rounds.urls")),
    path("patrons/", include("floor.patrons.urls")),
    path("cage/", include("floor.cage.urls")),
    path("compliance/", include("floor.compliance.urls")),
    path("ratings/", include("floor.ratings.urls")),
    path("count/", include("floor.count.urls")),
]
