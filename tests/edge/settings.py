"""Settings of the gunicorn server the edge tests start: the test settings with a URLConf that
adds one view failing on purpose."""

from config.settings_test import *  # noqa: F403

ROOT_URLCONF = "tests.edge.urls"
