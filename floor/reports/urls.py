from django.urls import path

from floor.reports import views

urlpatterns = [
    path("", views.today, name="reports"),
    path("<str:gaming_day>/", views.day_page, name="report_day"),
    path("<str:gaming_day>/month/", views.month_page, name="report_month"),
    path("<str:gaming_day>/report.<str:extension>", views.day_document, name="report_day_document"),
    path("<str:gaming_day>/<str:shift>/", views.shift_page, name="report_shift"),
    path(
        "<str:gaming_day>/<str:shift>/report.<str:extension>",
        views.shift_document,
        name="report_shift_document",
    ),
]
