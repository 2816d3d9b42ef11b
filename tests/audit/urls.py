"""The audit URLs as the project mounts them, without the rest of the API (the admin site's pages
link to the floor console, so it is mounted too)."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/audit/", include("audit.api.urls")),
    path("floor/", include("floor.urls")),
]

handler404 = "kernel.problems.not_found"
