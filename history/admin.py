"""Read-only admin for the configuration history, shown to whoever may read the audit trail."""

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from audit.admin import ReadOnlyAuditAdmin
from history.models import HISTORY_MODELS
from kernel.formatting import local_time


class HistoryAdmin(ReadOnlyAuditAdmin):
    list_display = ("changed_at", "change", "row_id", "request_id", "changed_by")
    list_filter = ("pgh_label",)
    search_fields = ("pgh_obj_id",)  # handled below: the id of the changed row
    search_help_text = "The id of the changed row."
    ordering = ("-pgh_id",)

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        term = search_term.strip()
        if not term:
            return queryset, False
        if not term.isdigit():
            return queryset.none(), False
        return queryset.filter(pgh_obj_id=int(term)), False

    @admin.display(description="changed at", ordering="pgh_created_at")
    def changed_at(self, event: Any) -> str:
        return local_time(event.pgh_created_at, seconds=True)

    @admin.display(description="change", ordering="pgh_label")
    def change(self, event: Any) -> str:
        return str(event.pgh_label)

    @admin.display(description="row id", ordering="pgh_obj_id")
    def row_id(self, event: Any) -> str:
        return str(event.pgh_obj_id)

    @admin.display(description="request id")
    def request_id(self, event: Any) -> str:
        return str((event.pgh_context or {}).get("request_id", ""))

    @admin.display(description="by")
    def changed_by(self, event: Any) -> str:
        context = event.pgh_context or {}
        return str(context.get("username") or context.get("terminal_name") or "")


for _history_model in HISTORY_MODELS:
    admin.site.register(_history_model, HistoryAdmin)
