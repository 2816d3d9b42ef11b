from django.urls import path

from floor.games import views

urlpatterns = [
    path("", views.today, name="games"),
    path("day/<str:gaming_day>/", views.day, name="games_day"),
    path("<int:game_id>/", views.game_story, name="game"),
]
