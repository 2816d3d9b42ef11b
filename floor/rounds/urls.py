from django.urls import path

from floor.rounds import views

urlpatterns = [
    path("", views.index, name="rounds"),
    path("<int:round_id>/", views.round_detail, name="round"),
    path("<int:round_id>/reverify/", views.round_reverify, name="round_reverify"),
    path("shoes/<int:shoe_id>/", views.shoe_detail, name="shoe"),
    path("specials/<int:round_id>/", views.special_round_detail, name="specials_round"),
    path("specials/matches/<int:match_id>/", views.special_match_detail, name="specials_match"),
    path("specials/<int:round_id>/reverify/", views.special_round_reverify, name="specials_round_reverify"),
]
