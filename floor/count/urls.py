from django.urls import path

from floor.count import variances, views

urlpatterns = [
    path("", views.count_page, name="count"),
    path("<int:count_id>/", views.count_detail, name="count_detail"),
    path("<int:count_id>/tally/", views.tally_page, name="count_tally"),
    path("<int:count_id>/correct/", views.correct_page, name="count_correct"),
    path("variances/", variances.variance_report, name="count_variances"),
    path("variances.csv", variances.variance_report_csv, name="count_variances_csv"),
]
