from django.urls import path

from floor.compliance import views

urlpatterns = [
    path("", views.today, name="compliance"),
    path("<str:gaming_day>/", views.day_page, name="compliance_day"),
    path("<str:gaming_day>/title31.csv", views.day_csv, name="compliance_csv"),
    path("<str:gaming_day>/title31.pdf", views.day_pdf, name="compliance_pdf"),
]
