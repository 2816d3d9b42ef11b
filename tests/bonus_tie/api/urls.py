"""The project's URLs with the paytable endpoints under `api/v1/paytables/`, as the project
includes them (listed first, so the tests hold whether or not config/urls.py has them yet)."""

from django.urls import include, path

from config.urls import handler400, handler403, handler404, handler500
from config.urls import urlpatterns as project_urlpatterns

urlpatterns = [path("api/v1/paytables/", include("bonus_tie.api.urls")), *project_urlpatterns]

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]
