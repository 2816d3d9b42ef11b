"""Logging filters of the settings' `LOGGING`."""

import logging


class ClientErrorsWithoutTraceback(logging.Filter):
    """Log a refused request (4xx) as its one line, without the exception that refused it.

    Django logs a 403 from `PermissionDenied` (the admin site's refusals), a 400 from a Host that
    is not allowed and other refusals with their exception, so each printed a full traceback. Those
    are expected answers to clients, not faults of the server; a 5xx keeps its traceback.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        status_code = getattr(record, "status_code", None)
        if isinstance(status_code, int) and 400 <= status_code < 500:
            record.exc_info = None
            record.exc_text = None
        return True
