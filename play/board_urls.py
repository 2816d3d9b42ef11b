from django.urls import URLPattern, path

from play import board

app_name = "board"

urlpatterns: list[URLPattern] = [
    path("<int:tournament_id>/", board.board_page, name="page"),
    path("<int:tournament_id>/standings/", board.board_standings, name="standings"),
]
