"""Include under `api/v1/audit/`: `path("api/v1/audit/", include("audit.api.urls"))`."""

from django.urls import path

from audit.api.views import AuditEventListApi, AuditVerifyApi

app_name = "audit"

urlpatterns = [
    path("events/", AuditEventListApi.as_view(), name="events"),
    path("verify/", AuditVerifyApi.as_view(), name="verify"),
]
