"""Post a console money form the way a browser does: fetch the page, send the form with its key.

Every money form of the console carries the one-time key of the page it was rendered in
(`kernel.forms.SubmittedOnceForm`); the server records each key once. Tests take the key from
the page, as the browser does, rather than making one up.
"""

import re
from collections.abc import Mapping
from typing import Any

from django.test import Client

from kernel.forms import SUBMISSION_KEY_FIELD

_KEY = re.compile(rf'name="{SUBMISSION_KEY_FIELD}" value="([^"]*)"')


def form_key(client: Client, page: str, *, action: str | None = None) -> str:
    """The key of the form on `page` (the first one posting to `action`, when given)."""
    response: Any = client.get(page)
    assert response.status_code == 200, (page, response.status_code)
    html = response.content.decode()
    start = 0
    if action is not None:
        start = html.index(f'action="{action}"')
    found = _KEY.search(html, start)
    assert found is not None, f"no submission key on {page}"
    return found.group(1)


def keyed(client: Client, page: str, body: Mapping[str, Any], *, action: str | None = None) -> dict[str, Any]:
    """`body` with the key of the form on `page`."""
    return {**body, SUBMISSION_KEY_FIELD: form_key(client, page, action=action)}


def post_form(
    client: Client, url: str, body: Mapping[str, Any], *, page: str | None = None, **options: Any
) -> Any:
    """GET the form (at `url`, or on `page` for a button of another page), then POST it with its key."""
    action = None if page is None else url
    return client.post(url, keyed(client, page or url, body, action=action), **options)


def key_in(response: Any) -> str:
    """The key a rendered answer carries (a review or confirmation step keeps the page's key)."""
    found = _KEY.search(response.content.decode())
    assert found is not None, "no submission key in the answer"
    return found.group(1)
