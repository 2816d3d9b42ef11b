from django.urls import path

from floor.cage import views

urlpatterns = [
    path("", views.cage_page, name="cage"),
    path("patron-day/", views.patron_day, name="cage_patron_day"),
    path("slips/<int:slip_id>/sign/", views.sign_slip, name="cage_slip_sign"),
]
