from django.urls import URLPattern, URLResolver, path

from casino.api import (
    accounting_views,
    cage_views,
    dealer_views,
    patron_views,
    soft_count_views,
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
    # Table money and shift reports.
    path("buy-ins/", accounting_views.BuyInCreateApi.as_view(), name="buy-in-create"),
    path("fills/", accounting_views.FillRequestApi.as_view(), name="fill-request"),
    path("fills/<int:slip_id>/approve/", accounting_views.FillApproveApi.as_view(), name="fill-approve"),
    path("fills/<int:slip_id>/void/", accounting_views.FillVoidApi.as_view(), name="fill-void"),
    path("credits/", accounting_views.CreditRequestApi.as_view(), name="credit-request"),
    path(
        "credits/<int:slip_id>/approve/", accounting_views.CreditApproveApi.as_view(), name="credit-approve"
    ),
    path("credits/<int:slip_id>/void/", accounting_views.CreditVoidApi.as_view(), name="credit-void"),
    path("tables/<int:table_id>/open/", accounting_views.TableOpenApi.as_view(), name="table-open"),
    path("tables/<int:table_id>/close/", accounting_views.TableCloseApi.as_view(), name="table-close"),
    path("soft-counts/", soft_count_views.SoftCountCreateApi.as_view(), name="soft-count-create"),
    path(
        "soft-counts/<int:count_id>/sign/",
        soft_count_views.SoftCountSignApi.as_view(),
        name="soft-count-sign",
    ),
    # Patrons and the cage (Title 31).
    path("patrons/", patron_views.PatronListCreateApi.as_view(), name="patrons"),
    path("patrons/<int:number>/identify/", patron_views.PatronIdentifyApi.as_view(), name="patron-identify"),
    path("cage/redemptions/", cage_views.RedemptionCreateApi.as_view(), name="cage-redemption-create"),
]
