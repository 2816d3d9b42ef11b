from django.urls import path

from floor.tournaments import views

urlpatterns = [
    path("", views.tournament_list, name="tournaments"),
    path("new/", views.tournament_new, name="tournament_new"),
    path("<int:tournament_id>/", views.tournament_page, name="tournament"),
    path("<int:tournament_id>/file/", views.tournament_file, name="tournament_file"),
    path("<int:tournament_id>/board-key/", views.board_key_new, name="tournament_board_key"),
    path("<int:tournament_id>/results/", views.results_propose, name="tournament_results"),
    path("<int:tournament_id>/results/approve/", views.results_approve, name="tournament_results_approve"),
    path("<int:tournament_id>/cancel/", views.tournament_cancel, name="tournament_cancel"),
    path("<int:tournament_id>/cancel/approve/", views.cancellation_approve, name="tournament_cancel_approve"),
    path("entries/new/", views.entry_new, name="tournament_entry"),
    path("entries/<int:entry_id>/slip/", views.entry_slip, name="tournament_slip"),
    path("prizes/", views.prize_list, name="tournament_prizes"),
    path("prizes/<int:prize_id>/pay/", views.prize_pay, name="tournament_prize_pay"),
]
