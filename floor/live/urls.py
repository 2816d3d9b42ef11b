from django.urls import path

from floor.live import views

urlpatterns = [
    path("", views.home, name="home"),
    path("pit-map/", views.pit_map, name="pit_map"),
]
