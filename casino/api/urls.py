from django.urls import URLPattern, URLResolver, path

from casino.api import (
    dealer_views,
    patron_views,
    views,
)

urlpatterns: list[URLPattern | URLResolver] = [
    path("terminal/", views.TerminalApi.as_view(), name="terminal"),
    path("terminal/sign-in/", views.TerminalSignInApi.as_view(), name="terminal-sign-in"),
    path("terminal/sign-out/", views.TerminalSignOutApi.as_view(), name="terminal-sign-out"),
    path("dealers/<int:dealer_id>/unlock/", dealer_views.DealerUnlockApi.as_view(), name="dealer-unlock"),
    path("shoes/", views.ShoeOpenApi.as_view(), name="shoe-open"),
    path("shoes/<int:shoe_id>/close/", views.ShoeCloseApi.as_view(), name="shoe-close"),
    path("rounds/", views.RoundOpenApi.as_view(), name="round-open"),
    path("rounds/<int:round_id>/", views.RoundDetailApi.as_view(), name="round-detail"),
    path("rounds/<int:round_id>/cards/", views.RoundCardApi.as_view(), name="round-card"),
    path("rounds/<int:round_id>/actions/", views.RoundActionApi.as_view(), name="round-action"),
    path("rounds/<int:round_id>/settle/", views.RoundSettleApi.as_view(), name="round-settle"),
    path("rounds/<int:round_id>/void/", views.RoundVoidApi.as_view(), name="round-void"),
    path("patrons/", patron_views.PatronListCreateApi.as_view(), name="patrons"),
    path("patrons/<int:number>/identify/", patron_views.PatronIdentifyApi.as_view(), name="patron-identify"),
]
