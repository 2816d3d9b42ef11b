"""The project's URLs plus the views of the edge tests: one answers the body it was sent, one
refuses the way the admin site refuses a staff member without the permission (Django's
`PermissionDenied`), and one fails on purpose, to see a 500 logged in full."""

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import path
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.urls import handler400, handler403, handler404, handler500
from config.urls import urlpatterns as project_urlpatterns

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]


class DeliberateFailureError(RuntimeError):
    pass


class FailingApi(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    def get(self, request: Request) -> Response:
        raise DeliberateFailureError("a deliberate failure of the edge tests")


class EchoApi(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    def post(self, request: Request) -> Response:
        return Response({"received": request.data})


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


urlpatterns = [
    path("edge-test/forbidden/", forbidden),
    path("api/v1/edge-test/failure/", FailingApi.as_view()),
    path("api/v1/edge-test/echo/", EchoApi.as_view()),
    *project_urlpatterns,
]
