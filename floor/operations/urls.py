from django.urls import path

from floor.operations import views

urlpatterns = [
    path("<int:table_id>/", views.table_page, name="table"),
    path("<int:table_id>/open/", views.open_table, name="table_open"),
    path("<int:table_id>/close/", views.close_table, name="table_close"),
    path("<int:table_id>/slips/new/", views.request_slip, name="slip_request"),
    path("<int:table_id>/slips/<int:slip_id>/approve/", views.approve_slip, name="slip_approve"),
    path("<int:table_id>/slips/<int:slip_id>/void/", views.void_slip, name="slip_void"),
    path("<int:table_id>/slips/<int:slip_id>/receive/", views.receive_fill, name="slip_receive"),
    path("<int:table_id>/slips/<int:slip_id>/print/", views.print_slip, name="slip_print"),
    path("<int:table_id>/rounds/void/", views.void_round, name="round_void"),
    path("<int:table_id>/dealers/<int:dealer_id>/unlock/", views.unlock_dealer, name="dealer_unlock"),
]
