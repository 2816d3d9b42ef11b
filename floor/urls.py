from django.contrib.auth import views as auth_views
from django.urls import include, path

app_name = "floor"

urlpatterns = [
    path(
        "login/",
        # Its form view would take a PUT as a POST: every console page answers 405 to PUT, PATCH, DELETE.
        auth_views.LoginView.as_view(
            template_name="floor/login.html", http_method_names=["get", "head", "post", "options"]
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
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
