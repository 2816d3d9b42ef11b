from django.urls import path

from floor.count import views

urlpatterns = [
    path("", views.count_page, name="count"),
    path("<int:count_id>/sign/", views.count_sign, name="count_sign"),
]
