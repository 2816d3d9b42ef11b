from django.urls import URLPattern, URLResolver, path

from reports.api import rating_views, tournament_views, views

urlpatterns: list[URLPattern | URLResolver] = [
    path("reports/shifts/", views.ShiftReportListApi.as_view(), name="shift-reports"),
    path("patrons/<int:number>/ratings/", rating_views.PatronRatingsApi.as_view(), name="patron-ratings"),
    path("ratings/", rating_views.DayRatingsApi.as_view(), name="day-ratings"),
    path(
        "tournaments/<int:tournament_id>/report/",
        tournament_views.TournamentReportApi.as_view(),
        name="tournament-report",
    ),
]
