from django.urls import URLPattern, path

from tournaments.api import views

urlpatterns: list[URLPattern] = [
    path("tournaments/", views.TournamentListCreateApi.as_view(), name="tournaments"),
    path("tournaments/<int:tournament_id>/", views.TournamentDetailApi.as_view(), name="tournament-detail"),
    path("tournaments/<int:tournament_id>/file/", views.TournamentFileApi.as_view(), name="tournament-file"),
    path(
        "tournaments/<int:tournament_id>/entries/",
        views.TournamentEntriesApi.as_view(),
        name="tournament-entries",
    ),
    path(
        "tournaments/<int:tournament_id>/cancel/",
        views.TournamentCancelApi.as_view(),
        name="tournament-cancel",
    ),
    path(
        "tournaments/<int:tournament_id>/cancel/approve/",
        views.TournamentCancelApproveApi.as_view(),
        name="tournament-cancel-approve",
    ),
    path(
        "tournaments/<int:tournament_id>/leaderboard/",
        views.TournamentLeaderboardApi.as_view(),
        name="tournament-leaderboard",
    ),
    path(
        "tournaments/<int:tournament_id>/games/", views.TournamentGamesApi.as_view(), name="tournament-games"
    ),
    path(
        "tournaments/<int:tournament_id>/results/",
        views.TournamentResultsApi.as_view(),
        name="tournament-results",
    ),
    path(
        "tournaments/<int:tournament_id>/results/approve/",
        views.TournamentResultsApproveApi.as_view(),
        name="tournament-results-approve",
    ),
    path("prizes/<int:prize_id>/pay/", views.PrizePayApi.as_view(), name="prize-pay"),
]
