"""The API schema and its docs pages, for signed-in staff only (a console session or a staff API
token): anonymous callers and terminals get a 401/403 problem+json, whatever page they asked for.

The docs pages (Swagger UI and Redoc, served from the sidecar package) carry a `<style>` element
and set styles from script, and Redoc starts a web worker from a blob: their own pages, and no
other, get `style-src 'unsafe-inline'` and `worker-src blob:` on top of the site's policy. The
Swagger page loads its start-up script from a URL (the split view), so no inline script is needed.
"""

from typing import Any

from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_update
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import BasePermission
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.authentication import Principal, TokenAuthentication
from floor.access import role_of

DOCS_PAGE_POLICY = {"style-src": [UNSAFE_INLINE], "worker-src": [SELF, "blob:"]}


class SignedInStaff(BasePermission):
    message = "Only signed-in staff may read the API schema and its docs."
    code = "staff_only"

    def has_permission(self, request: Request, view: Any) -> bool:
        user = request.user
        if isinstance(user, Principal):
            return user.role is not None
        return role_of(user) is not None or bool(getattr(user, "is_superuser", False) and user.is_active)


# Token first, so an anonymous caller is told how to authenticate (401, WWW-Authenticate).
STAFF_ONLY: dict[str, Any] = {
    "authentication_classes": [TokenAuthentication, SessionAuthentication],
    "permission_classes": [SignedInStaff],
}


class _StaffOnly:
    def handle_exception(self, exc: Exception) -> Response:
        # A refusal is problem+json, whichever renderer (HTML page, YAML schema) was negotiated.
        request = self.request  # type: ignore[attr-defined]
        request.accepted_renderer, request.accepted_media_type = JSONRenderer(), JSONRenderer.media_type
        return super().handle_exception(exc)  # type: ignore[misc]


class StaffSchemaView(_StaffOnly, SpectacularAPIView):
    pass


class StaffSwaggerView(_StaffOnly, SpectacularSwaggerSplitView):
    pass


class StaffRedocView(_StaffOnly, SpectacularRedocView):
    pass


schema_view = StaffSchemaView.as_view(**STAFF_ONLY)
swagger_view = csp_update(DOCS_PAGE_POLICY)(StaffSwaggerView.as_view(url_name="schema", **STAFF_ONLY))
redoc_view = csp_update(DOCS_PAGE_POLICY)(StaffRedocView.as_view(url_name="schema", **STAFF_ONLY))
