"""Staff sign-in for the floor console and the admin site: one authentication backend that
throttles and locks (`casino.services.staff_sign_in`), the forms that say why a sign-in was
refused, the console's sign-in and password-change pages, and the stamps the session timeouts
read (`config.middleware.StaffSessionTimeouts`).

The backend is the only one configured (`AUTHENTICATION_BACKENDS`), so every password sign-in,
whichever form asks, goes through the throttle and the lock. It refuses by raising
`PermissionDenied` (Django then stops asking other backends and sends `user_login_failed`) and
leaves the refusal on the request for the form to show.
"""

from typing import Any

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django.urls import reverse_lazy
from django.utils import timezone
from django.utils.decorators import method_decorator

from audit.middleware import client_address_from
from casino.admin_site import BackOfficeAuthenticationForm
from casino.services.staff_sign_in import BAD_CREDENTIALS, StaffSignInRefusal, sign_in_source, sign_in_staff
from floor.access import console_view, landing_page

REFUSAL_ATTRIBUTE = "staff_sign_in_refusal"
# Session keys (seconds since the epoch): when the staff member signed in, and when they last
# made a request themselves.
SIGNED_IN_AT = "_casino_signed_in_at"
SEEN_AT = "_casino_seen_at"


class ThrottledModelBackend(ModelBackend):
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        if username is None or password is None:
            return None
        address = client_address_from(request.META.get("REMOTE_ADDR")) if request is not None else ""
        outcome = sign_in_staff(
            username=str(username),
            source=sign_in_source(address),
            now=timezone.now(),
            verify=lambda: super(ThrottledModelBackend, self).authenticate(
                request, username=username, password=password, **kwargs
            ),
            path=request.path if request is not None else "",
        )
        if isinstance(outcome, StaffSignInRefusal):
            if request is not None:
                setattr(request, REFUSAL_ATTRIBUTE, outcome)
            raise PermissionDenied(outcome.message)
        return outcome


def refusal_of(request: HttpRequest | None) -> StaffSignInRefusal | None:
    refused = getattr(request, REFUSAL_ATTRIBUTE, None)
    return refused if isinstance(refused, StaffSignInRefusal) else None


class RefusalMessages:
    """Mixed into an `AuthenticationForm`: a locked or throttled sign-in says so (never whether
    the password was right); a wrong password keeps the form's usual message."""

    request: HttpRequest | None

    def get_invalid_login_error(self) -> ValidationError:
        refused = refusal_of(self.request)
        if refused is not None and refused.reason != "bad_credentials":
            return ValidationError(refused.message, code=refused.code)
        return super().get_invalid_login_error()  # type: ignore[misc]


class StaffAuthenticationForm(RefusalMessages, AuthenticationForm):
    error_messages = {**AuthenticationForm.error_messages, "invalid_login": BAD_CREDENTIALS.message}


class StaffAdminAuthenticationForm(RefusalMessages, BackOfficeAuthenticationForm):
    """The admin site's sign-in: the throttle's and lock's messages, and only the roles the site admits."""


class StaffLoginView(auth_views.LoginView):
    """The console's sign-in page: 429 with Retry-After while the address is throttled."""

    template_name = "floor/login.html"
    form_class = StaffAuthenticationForm
    # Its form view would take a PUT as a POST: every console page answers 405 to PUT, PATCH, DELETE.
    http_method_names = ["get", "head", "post", "options"]

    def get_success_url(self) -> str:
        """The page asked for, or the page the role works on (`floor.access.landing_page`): the
        console's home page, asked for by a visitor of `/`, is the role's own."""
        asked = self.get_redirect_url()
        if asked and asked not in (resolve_url("root"), resolve_url("floor:home")):
            return asked
        return resolve_url(landing_page(self.request.user))

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        refused = refusal_of(self.request)
        if refused is not None and refused.reason == "throttled":
            response.status_code = 429
            response["Retry-After"] = str(refused.retry_after_seconds or 1)
        return response


@method_decorator(console_view(), name="dispatch")
class StaffPasswordChangeView(auth_views.PasswordChangeView):
    """A staff member changes their own password; their other sessions end (Django's session
    hash), this one stays signed in."""

    template_name = "floor/password_change.html"
    success_url = reverse_lazy("floor:password_change_done")
    http_method_names = ["get", "head", "post", "options"]


@method_decorator(console_view(), name="dispatch")
class StaffPasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "floor/password_change_done.html"
    http_method_names = ["get", "head", "options"]


def stamp_sign_in(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """`user_logged_in` receiver: the session's sign-in time, from which its lifetime and idle
    time are measured."""
    if request is None or not hasattr(request, "session"):
        return
    now = timezone.now().timestamp()
    request.session[SIGNED_IN_AT] = now
    request.session[SEEN_AT] = now


def use_in_admin_site() -> None:
    admin.site.login_form = StaffAdminAuthenticationForm
