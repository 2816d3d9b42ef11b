from django.urls import path

from floor.games import views

urlpatterns = [
    path("", views.today, name="games"),
    path("day/<str:gaming_day>/", views.day, name="games_day"),
    path("<int:game_id>/", views.game_story, name="game"),
    path("<int:game_id>/rescore/", views.game_rescore, name="game_rescore"),
    path("<int:game_id>/deck/", views.game_deck, name="game_deck"),
]
