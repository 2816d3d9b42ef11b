from django.urls import URLPattern, URLResolver, path

from patrons.api import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("patrons/", views.PatronListCreateApi.as_view(), name="patrons"),
    path("patrons/<int:number>/identify/", views.PatronIdentifyApi.as_view(), name="patron-identify"),
]
