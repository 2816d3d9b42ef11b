from django.urls import URLPattern, path

from skill_games.api import views

urlpatterns: list[URLPattern] = [
    path("games/", views.GameCreateApi.as_view(), name="skill-game-create"),
    path("games/<int:game_id>/", views.GameDetailApi.as_view(), name="skill-game-detail"),
    path("games/<int:game_id>/moves/", views.GameMovesApi.as_view(), name="skill-game-moves"),
]
