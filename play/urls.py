from django.urls import URLPattern, path

from play import views

app_name = "play"

urlpatterns: list[URLPattern] = [
    path("", views.play_page, name="page"),
    path("game/", views.game_state, name="game"),
    path("move/", views.move, name="move"),
    path("leave/", views.leave, name="leave"),
    path("start/", views.start, name="start"),
    path("nickname/", views.nickname, name="nickname"),
]
