"""`{% submission_key %}`: the hidden one-time key of a one-button money form (approve, sign)."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from kernel.forms import SUBMISSION_KEY_FIELD, new_submission_key

register = template.Library()


@register.simple_tag
def submission_key() -> SafeString:
    return format_html(
        '<input type="hidden" name="{}" value="{}">', SUBMISSION_KEY_FIELD, new_submission_key()
    )
