from django.urls import path

from floor.cage import views

urlpatterns = [path("", views.cage_page, name="cage")]
