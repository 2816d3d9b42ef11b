from django.urls import path

from floor.rule_changes import views

urlpatterns = [
    path("", views.change_list, name="rule_changes"),
    path("new/", views.change_new, name="rule_change_new"),
    path("<int:change_id>/", views.change_detail, name="rule_change"),
    path("<int:change_id>/approve/", views.change_approve, name="rule_change_approve"),
    path("<int:change_id>/reject/", views.change_reject, name="rule_change_reject"),
    path("<int:change_id>/withdraw/", views.change_withdraw, name="rule_change_withdraw"),
]
