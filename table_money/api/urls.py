from django.urls import URLPattern, URLResolver, path

from table_money.api import accounting_views, cage_views, soft_count_views, title31_views

urlpatterns: list[URLPattern | URLResolver] = [
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
        "soft-counts/<int:count_id>/tallies/",
        soft_count_views.SoftCountTallyApi.as_view(),
        name="soft-count-tally",
    ),
    path("cage/redemptions/", cage_views.RedemptionCreateApi.as_view(), name="cage-redemption-create"),
    path("title31/", title31_views.Title31DayApi.as_view(), name="title31-day"),
]
