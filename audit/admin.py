"""Read-only admin for the audit trail, with a gaming-day export.

Nobody adds, changes or deletes here (the database refuses it anyway). Only
compliance staff (and superusers) see the audit trail, as in the API: it is what compliance
enters the admin site for (casino.admin_site), with the paytable decisions. The
configuration history's admin (`history.admin`) reuses `ReadOnlyAuditAdmin`.
"""

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import FieldDoesNotExist, PermissionDenied
from django.db import models, transaction
from django.http import HttpRequest, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString

from audit.context import COMPLIANCE_ROLE, AuditActor, staff_role
from audit.exports import CONTENT_TYPES, FORMATS, export_gaming_day, filename_for
from audit.models import AuditAnchor, AuditCheckpoint, AuditEvent
from audit.services import record_event
from kernel.formatting import local_time
from kernel.forms import GamingDayField


def may_read_audit(request: HttpRequest) -> bool:
    cached = getattr(request, "_audit_may_read", None)
    if cached is not None:
        return bool(cached)
    user = request.user
    allowed = bool(
        user.is_active and user.is_staff and (user.is_superuser or staff_role(user) == COMPLIANCE_ROLE)
    )
    request._audit_may_read = allowed  # type: ignore[attr-defined]
    return allowed


_LOCAL_TIMES: dict[tuple[type[models.Model], str], Callable[[Any], str]] = {}


def _shown_in_local_time(model: type[models.Model], name: Any) -> Any:
    """A date-time field's display in the casino's local time with its zone; other names as they are."""
    if not isinstance(name, str):
        return name
    try:
        field = model._meta.get_field(name)
    except FieldDoesNotExist:
        return name
    if not isinstance(field, models.DateTimeField):
        return name
    if (model, name) not in _LOCAL_TIMES:

        @admin.display(description=str(field.verbose_name), ordering=name)
        def shown(row: Any) -> str:
            return local_time(getattr(row, name), seconds=True)

        shown.__name__ = name  # the CSS class stays `field-<name>`
        _LOCAL_TIMES[model, name] = shown
    return _LOCAL_TIMES[model, name]


class ReadOnlyAuditAdmin(admin.ModelAdmin):
    actions = None

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        # Every field here is read-only: times are shown in the casino's zone, named.
        return [
            (
                title,
                {**options, "fields": [_shown_in_local_time(self.model, name) for name in options["fields"]]},
            )
            for title, options in super().get_fieldsets(request, obj)
        ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may_read_audit(request)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return may_read_audit(request)


class GamingDayExportForm(forms.Form):
    gaming_day = GamingDayField(help_text="Starts 06:00 casino time.")
    format = forms.ChoiceField(choices=[(fmt, fmt.upper()) for fmt in FORMATS])


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAuditAdmin):
    list_display = (
        "id",
        "chain",
        "seq",
        "occurred",
        "event_type",
        "kind",
        "actor_label",
        "table_name",
        "subject_label",
    )
    list_filter = ("kind", "actor_kind")
    search_fields = (
        "=chain",
        "=event_type",
        "=username",
        "=terminal_name",
        "=request_id",
        "=idempotency_key",
        "subject_label",
    )
    ordering = ("-id",)
    date_hierarchy = "occurred_at"
    show_full_result_count = False

    @admin.display(description="actor")
    def actor_label(self, event: AuditEvent) -> str:
        return event.actor_label

    @admin.display(description="occurred at", ordering="occurred_at")
    def occurred(self, event: AuditEvent) -> str:
        return local_time(event.occurred_at, seconds=True)

    def get_urls(self) -> list[URLPattern]:
        export = path("export/", self.admin_site.admin_view(self.export_view), name="audit_auditevent_export")
        return [export, *super().get_urls()]

    def export_view(self, request: HttpRequest) -> HttpResponseBase:
        if not self.has_view_permission(request):
            raise PermissionDenied
        form = GamingDayExportForm(request.GET if "gaming_day" in request.GET else None)
        if form.is_valid():
            day, fmt = form.cleaned_data["gaming_day"], form.cleaned_data["format"]
            user = request.user
            with transaction.atomic():
                # Reading the audit trail out of the system is itself on the record.
                record_event(
                    event_type="audit.export.downloaded",
                    actor=AuditActor(
                        kind="user",
                        user_id=user.pk,
                        username=user.get_username(),
                        role=COMPLIANCE_ROLE if not user.is_superuser else "superuser",
                    ),
                    table_id=None,
                    table_name="",
                    subject_type="gaming_day",
                    subject_id=day.isoformat(),
                    subject_label=f"gaming day {day.isoformat()} ({fmt})",
                    occurred_at=timezone.now(),
                )
            response = StreamingHttpResponse(
                export_gaming_day(day=day, fmt=fmt), content_type=CONTENT_TYPES[fmt]
            )
            response["Content-Disposition"] = f'attachment; filename="{filename_for(day=day, fmt=fmt)}"'
            return response
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "opts": self.model._meta,
            "title": "Export the audit events of a gaming day",
        }
        return TemplateResponse(request, "admin/audit/auditevent/export.html", context)


@admin.register(AuditAnchor)
class AuditAnchorAdmin(ReadOnlyAuditAdmin):
    list_display = ("created", "chains", "events", "digest")
    ordering = ("-id",)
    show_full_result_count = False

    @admin.display(description="created at", ordering="created_at")
    def created(self, anchor: AuditAnchor) -> str:
        return local_time(anchor.created_at, seconds=True)


@admin.register(AuditCheckpoint)
class AuditCheckpointAdmin(ReadOnlyAuditAdmin):
    list_display = ("created", "verdict", "events", "head_hash", "anchor")
    list_filter = ("ok",)
    ordering = ("-created_at",)

    @admin.display(description="created at", ordering="created_at")
    def created(self, checkpoint: AuditCheckpoint) -> str:
        return local_time(checkpoint.created_at, seconds=True)

    @admin.display(description="chains", ordering="ok")
    def verdict(self, checkpoint: AuditCheckpoint) -> SafeString | str:
        if checkpoint.ok:
            return "intact"
        return format_html('<span class="alarm">{}</span>', "BROKEN")
