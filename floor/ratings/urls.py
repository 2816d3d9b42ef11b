from django.urls import path

from floor.ratings import views

urlpatterns = [
    path("", views.today, name="ratings"),
    path("<str:gaming_day>/", views.day, name="ratings_day"),
]
