from django.urls import path

from floor.patrons import views

urlpatterns = [
    path("", views.find_or_create, name="patrons"),
    path("refer/", views.refer, name="sar_refer"),
    path("<int:number>/", views.patron_page, name="patron"),
    path("<int:number>/identify/", views.identify, name="patron_identify"),
]
