"""The audit URLs as the project mounts them, without the rest of the API."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/audit/", include("audit.api.urls")),
]

handler404 = "kernel.problems.not_found"
