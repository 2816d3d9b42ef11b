"""How the admin site shows the floor's records to staff (issue 12, item 5).

- Money columns (`*_cents`) in dollars with separators; editable ones take dollars ("1,250.00").
- Date-times in the casino's local time with the zone's abbreviation.
- Chips (JSON keyed by denomination in cents) as a denomination table with its total.
- Alarms as a red label, never a green tick.

`StaffPresentation` applies the first three to every model field an admin shows read-only (list
columns, read-only fields of a change page, read-only inline rows), so no admin has to repeat them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

from django.contrib import admin
from django.contrib.admin.utils import flatten_fieldsets
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import capfirst

from casino.admin_site import admin_site_role
from casino.models import StaffRole
from kernel.formatting import dollars, local_time
from kernel.forms import DollarsField

CHIPS_FIELD = "chips"

Display = Callable[[Any], Any]


def alarm_label(text: str) -> SafeString:
    """A red label: an alarm must never read as a green tick."""
    return format_html('<span class="alarm">{}</span>', text)  # casino/static/casino/admin.css


def chips_table(chips: Mapping[str, int] | None) -> SafeString:
    """`{"2500": 8, "500": 20}` as a table: denomination, count, value, largest first, and the total."""
    if not chips:
        return format_html("{}", "No chips")
    rows = sorted(((int(denomination), count) for denomination, count in chips.items()), reverse=True)
    body = format_html_join(
        "",
        '<tr><td class="money">{}</td><td class="count">{}</td><td class="money">{}</td></tr>',
        (
            (dollars(denomination), f"{count:,}", dollars(denomination * count))
            for denomination, count in rows
        ),
    )
    total = sum(denomination * count for denomination, count in rows)
    return format_html(
        '<table class="chips"><thead><tr><th>Denomination</th><th>Count</th><th>Value</th></tr></thead>'
        '<tbody>{}</tbody><tfoot><tr><th colspan="2">Total</th><th class="money">{}</th></tr></tfoot></table>',
        body,
        dollars(total),
    )


def _label(field: models.Field[Any, Any]) -> str:
    name = str(field.verbose_name)
    return capfirst(name.removesuffix(" cents")) or name


def _money_display(field: models.Field[Any, Any]) -> Display:
    @admin.display(description=_label(field), ordering=field.name)
    def shown(row: Any) -> str:
        return dollars(getattr(row, field.name))

    shown.__name__ = field.name  # the CSS class of the cell stays `field-<name>`
    return shown


def _time_display(field: models.Field[Any, Any]) -> Display:
    @admin.display(description=_label(field), ordering=field.name)
    def shown(row: Any) -> str:
        moment: dt.datetime | None = getattr(row, field.name)
        return local_time(moment)

    shown.__name__ = field.name
    return shown


def _chips_display(field: models.Field[Any, Any]) -> Display:
    @admin.display(description=_label(field))
    def shown(row: Any) -> SafeString:
        return chips_table(getattr(row, field.name))

    shown.__name__ = field.name
    return shown


_DISPLAYS: dict[tuple[type[models.Model], str], Display] = {}


def presented(model: type[models.Model], name: Any) -> Any:
    """The display for a field shown read-only: a callable for money, times and chips; otherwise
    `name` unchanged. The same callable each time, so the admin can match it up."""
    if not isinstance(name, str):
        return name
    try:
        field = model._meta.get_field(name)
    except FieldDoesNotExist:
        return name
    key = (model, name)
    if key not in _DISPLAYS:
        if isinstance(field, models.DateTimeField):
            _DISPLAYS[key] = _time_display(field)
        elif isinstance(field, models.IntegerField) and name.endswith("_cents"):
            _DISPLAYS[key] = _money_display(field)
        elif isinstance(field, models.JSONField) and name == CHIPS_FIELD:
            _DISPLAYS[key] = _chips_display(field)
        else:
            return name
    return _DISPLAYS[key]


def _form_fields(fields: Any) -> list[str] | None:
    """The names a form edits: a display is shown, never edited."""
    return None if fields is None else [name for name in fields if isinstance(name, str)]


def _present_fieldsets(
    model: type[models.Model], fieldsets: Any, shown: Callable[[Any], bool]
) -> list[tuple[Any, dict[str, Any]]]:
    def one(entry: Any) -> Any:
        if isinstance(entry, list | tuple):  # fields shown side by side on one line
            return type(entry)(one(part) for part in entry)
        return presented(model, entry) if shown(entry) else entry

    return [
        (title, {**options, "fields": [one(entry) for entry in options["fields"]]})
        for title, options in fieldsets
    ]


class StaffPresentation:
    """A ModelAdmin or inline mixin: money, times and chips shown as staff read them, wherever the
    admin shows a model field read-only; editable money fields take dollars.

    A field shown read-only is replaced by its display (`presented`) in the fieldsets and in the
    read-only fields, and left out of the form. A subclass that overrides `get_readonly_fields`
    gets the same replacement (`__init_subclass__`), so the two lists always match."""

    model: type[models.Model]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("get_readonly_fields")
        if own is None or getattr(own, "presents_fields", False):
            return

        def get_readonly_fields(self: StaffPresentation, request: HttpRequest, obj: Any = None) -> Any:
            return [presented(self.model, name) for name in own(self, request, obj)]

        get_readonly_fields.presents_fields = True  # type: ignore[attr-defined]
        cls.get_readonly_fields = get_readonly_fields  # type: ignore[method-assign]

    def get_list_display(self, request: HttpRequest) -> Any:
        return [presented(self.model, name) for name in super().get_list_display(request)]  # type: ignore[misc]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return [presented(self.model, name) for name in super().get_readonly_fields(request, obj)]  # type: ignore[misc]

    def _shows_everything_read_only(self, request: HttpRequest, obj: Any) -> bool:
        if isinstance(self, admin.ModelAdmin):
            return obj is not None and not self.has_change_permission(request, obj)
        # An inline: `obj` is the parent; rows nobody may change or add are only read.
        inline: Any = self
        return not inline.has_change_permission(request, obj) and not inline.has_add_permission(request, obj)

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        fieldsets = super().get_fieldsets(request, obj)  # type: ignore[misc]
        readonly = set(self.get_readonly_fields(request, obj))
        everything = self._shows_everything_read_only(request, obj)
        return _present_fieldsets(
            self.model, fieldsets, lambda name: everything or presented(self.model, name) in readonly
        )

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        # `fields=None` is Django asking for every form field (to build the default fieldsets).
        fields = (
            kwargs["fields"] if "fields" in kwargs else flatten_fieldsets(self.get_fieldsets(request, obj))
        )
        kwargs["fields"] = _form_fields(fields)
        return super().get_form(request, obj, change, **kwargs)  # type: ignore[misc]

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        fields = (
            kwargs["fields"] if "fields" in kwargs else flatten_fieldsets(self.get_fieldsets(request, obj))
        )
        kwargs["fields"] = _form_fields(fields)
        return super().get_formset(request, obj, **kwargs)  # type: ignore[misc]

    def formfield_for_dbfield(
        self, db_field: models.Field[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> Any:
        if isinstance(db_field, models.IntegerField) and db_field.name.endswith("_cents"):
            return DollarsField(
                label=f"{_label(db_field)} ($)",
                required=not db_field.blank,
                help_text=db_field.help_text or "In dollars, for example 1,250.00.",
            )
        return super().formfield_for_dbfield(db_field, request, **kwargs)  # type: ignore[misc]


def role_of(request: HttpRequest) -> str | None:
    return admin_site_role(request.user)


def is_admin(request: HttpRequest) -> bool:
    return role_of(request) == StaffRole.ADMIN


class ReadOnlyAdmin(StaffPresentation, admin.ModelAdmin):
    """The admin views; nobody adds, changes or deletes here (the floor roles read their own pits'
    records on the floor console)."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_admin(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_admin(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
