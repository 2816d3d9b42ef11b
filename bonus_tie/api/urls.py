"""Paytable endpoints; the project includes them under `api/v1/paytables/`."""

from django.urls import URLPattern, URLResolver, path

from bonus_tie.api import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.PaytablesApi.as_view(), name="paytables"),
    path("<int:version>/", views.PaytableDetailApi.as_view(), name="paytable-detail"),
    path("<int:version>/approve/", views.PaytableApproveApi.as_view(), name="paytable-approve"),
    path("<int:version>/reject/", views.PaytableRejectApi.as_view(), name="paytable-reject"),
]
