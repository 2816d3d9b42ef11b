from django.urls import URLPattern, URLResolver, path

from blackjack.api import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("terminal/", views.TerminalApi.as_view(), name="terminal"),
    path("rounds/", views.RoundOpenApi.as_view(), name="round-open"),
    path("rounds/<int:round_id>/", views.RoundDetailApi.as_view(), name="round-detail"),
    path("rounds/<int:round_id>/cards/", views.RoundCardApi.as_view(), name="round-card"),
    path("rounds/<int:round_id>/actions/", views.RoundActionApi.as_view(), name="round-action"),
    path("rounds/<int:round_id>/settle/", views.RoundSettleApi.as_view(), name="round-settle"),
    path("rounds/<int:round_id>/void/", views.RoundVoidApi.as_view(), name="round-void"),
]
