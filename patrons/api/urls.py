from django.urls import URLPattern, URLResolver, path

from patrons.api import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("patrons/", views.PatronListCreateApi.as_view(), name="patrons"),
    path("patrons/<int:number>/identify/", views.PatronIdentifyApi.as_view(), name="patron-identify"),
    path("patrons/<int:number>/exclude/", views.PatronExcludeApi.as_view(), name="patron-exclude"),
    path("patrons/<int:number>/reinstate/", views.PatronReinstateApi.as_view(), name="patron-reinstate"),
]
