from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from config.api_docs import redoc_view, schema_view, swagger_view
from config.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("", RedirectView.as_view(pattern_name="floor:home"), name="root"),
    path("floor/", include("floor.urls")),
    path("admin/", admin.site.urls),
    path("play/", include("play.urls")),
    path("board/", include("play.board_urls")),
    # For signed-in staff only (config.api_docs).
    path("api/v1/schema/", schema_view, name="schema"),
    path("api/v1/docs/", swagger_view, name="api-docs"),
    path("api/v1/redoc/", redoc_view, name="api-redoc"),
    path("api/v1/audit/", include("audit.api.urls")),
    path("api/v1/paytables/", include("bonus_tie.api.urls")),
    path("api/v1/specials/", include("specials.api.urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/v1/", include("skill_games.api.urls")),
    path("api/v1/", include("reports.api.urls")),
    path("api/v1/", include("table_money.api.urls")),
    path("api/v1/", include("blackjack.api.urls")),
    path("api/v1/", include("patrons.api.urls")),
    path("api/v1/", include("casino.api.urls")),
]

handler400 = "kernel.problems.bad_request"
handler403 = "kernel.problems.permission_denied"
handler404 = "kernel.problems.not_found"
handler500 = "kernel.problems.server_error"
