from django.urls import URLPattern, path

from specials.api import views

urlpatterns: list[URLPattern] = [
    path("matches/", views.MatchStartApi.as_view(), name="specials-match-start"),
    path("matches/<int:match_id>/", views.MatchDetailApi.as_view(), name="specials-match-detail"),
    path("matches/<int:match_id>/rounds/", views.MatchRoundOpenApi.as_view(), name="specials-round-open"),
    path("rounds/<int:round_id>/", views.RoundDetailApi.as_view(), name="specials-round-detail"),
    path("rounds/<int:round_id>/cards/", views.RoundCardApi.as_view(), name="specials-round-card"),
    path("rounds/<int:round_id>/actions/", views.RoundActionApi.as_view(), name="specials-round-action"),
]
