"""The one settings module. Every difference between deployments is an
environment variable (see `.env.example`); nothing here is per machine."""

from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DJANGO_DEBUG", default=False)
# The demo run command sets DJANGO_DEMO=1: a fixed, well-known secret is fine there only.
DEMO = env.bool("DJANGO_DEMO", default=False)
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="")
if not SECRET_KEY:
    if not (DEBUG or DEMO):
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set. Set it, or set DJANGO_DEBUG=1 for a development run."
        )
    SECRET_KEY = "insecure-development-key-never-use-in-production"  # noqa: S105

ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "casino.apps.BackOfficeAdminConfig",  # the admin site of casino.admin_site
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "csp",
    "pgtrigger",
    "pghistory",
    "kernel",
    "casino",
    "patrons",
    "blackjack",
    "bonus_tie",
    "specials",
    "table_money",
    # The skill games (RULES.md §3): the kit, then the games it runs.
    "skill_games",
    "attack",
    "squares",
    "make21",
    "tournaments",
    "reports",
    "config",
    "audit",
    "history",
    "floor",
    "play",  # the player page of the skill games (a seat token, no staff login)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Outside the session and CSRF middleware, so it sees (and marks) the cookies they set.
    "config.middleware.SecureCookiesOnSecureRequests",
    "config.middleware.NoStoreForSignedInAndApi",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.middleware.RefuseUnreadableCharset",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "audit.middleware.RequestContextMiddleware",
    "config.middleware.CasinoLocalTimeForStaffPages",
    "django.contrib.messages.middleware.MessageMiddleware",
    "config.middleware.StaffSessionTimeouts",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
# Staff sign in to the floor console; the admin site keeps its own sign-in page.
LOGIN_URL = "floor:login"
LOGIN_REDIRECT_URL = "floor:home"
LOGOUT_REDIRECT_URL = "floor:login"
# Staff sign in with a password through this backend only: it throttles and locks (see
# casino.services.staff_sign_in and docs/security.md).
AUTHENTICATION_BACKENDS = ["floor.sign_in.ThrottledModelBackend"]
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "floor.context_processors.casino_time_zone",
                "floor.context_processors.console_staff",
            ],
        },
    },
]

if env.str("DATABASE_URL", default=""):
    DATABASES = {"default": env.db("DATABASE_URL")}
    # Django's PostgreSQL backend with prepared statements for the terminal's calls.
    DATABASES["default"]["ENGINE"] = "kernel.postgresql"
else:
    from config.embedded_postgres.server import database_settings

    DATABASES = {"default": database_settings()}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Persistent connections: opening one costs the server a process fork and both sides a
# handshake on every request. Each is checked before reuse after a request ends.
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DJANGO_CONN_MAX_AGE", default=600))
DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"
# The casino's own time zone: used for gaming-day and shift boundaries only.
CASINO_TIME_ZONE = env.str("CASINO_TIME_ZONE", default="America/Los_Angeles")
GAMING_DAY_STARTS = env.str("CASINO_GAMING_DAY_STARTS", default="06:00")
# The special deck a specials match deals from when the terminal names no card (RULES.md §2).
SPECIALS_DECK_SWAP = env.int("SPECIALS_DECK_SWAP", default=7)
SPECIALS_DECK_PLUS_ONE = env.int("SPECIALS_DECK_PLUS_ONE", default=7)
# Shift reports flag tables whose hold is outside this range, in basis points (10%-20%).
CASINO_EXPECTED_HOLD_BP = tuple(env.list("CASINO_EXPECTED_HOLD_BP", cast=int, default=[1000, 2000]))
# ... but only once the drop reaches this (a freshly opened table's hold means nothing): $1,000.
CASINO_HOLD_ALERT_MIN_DROP_CENTS = env.int("CASINO_HOLD_ALERT_MIN_DROP_CENTS", default=100_000)
if CASINO_HOLD_ALERT_MIN_DROP_CENTS < 0:
    raise ImproperlyConfigured("CASINO_HOLD_ALERT_MIN_DROP_CENTS is 0 or more.")
# The soft count of each table's drop box: once per shift ("shift") or once per gaming day ("day").
CASINO_SOFT_COUNT_PER = env.str("CASINO_SOFT_COUNT_PER", default="shift")
if CASINO_SOFT_COUNT_PER not in ("shift", "day"):
    raise ImproperlyConfigured("CASINO_SOFT_COUNT_PER is `shift` or `day`.")
# Printed at the head of every shift and daily report page (the gaming licence holder and the
# licensed premises). The demo's casino has its own unless they are set.
CASINO_LICENSEE = env.str("CASINO_LICENSEE", default="Demo Gaming LLC" if DEMO else "Licensee not configured")
CASINO_PROPERTY = env.str(
    "CASINO_PROPERTY", default="Demo casino, 1 Demo Way" if DEMO else "Property not configured"
)
# Player ratings (reports.ratings): a patron's rating session at a table ends when they sit
# out this many rounds dealt there, or this many minutes pass between two of their rounds.
CASINO_RATING_BREAK_ROUNDS = env.int("CASINO_RATING_BREAK_ROUNDS", default=10)
CASINO_RATING_BREAK_MINUTES = env.int("CASINO_RATING_BREAK_MINUTES", default=20)
# Title 31 (31 CFR 1021.311/313; table_money.services.title31): every cash-in or cash-out at or above the
# MTL threshold goes on the multiple transaction log; a patron's cash-in or cash-out of a gaming day
# totalling more than the CTR threshold raises a currency transaction report worksheet.
CASINO_MTL_THRESHOLD_CENTS = env.int("CASINO_MTL_THRESHOLD_CENTS", default=300_000)
CASINO_CTR_THRESHOLD_CENTS = env.int("CASINO_CTR_THRESHOLD_CENTS", default=1_000_000)
if not 0 < CASINO_MTL_THRESHOLD_CENTS <= CASINO_CTR_THRESHOLD_CENTS:
    raise ImproperlyConfigured("CASINO_MTL_THRESHOLD_CENTS is above 0, at most CASINO_CTR_THRESHOLD_CENTS.")
# A tournament prize at or over this is paid only to an identified patron and listed for the tax
# forms (RULES.md §4: the federal information-return minimum from 2026, $2,000).
CASINO_PRIZE_REPORTING_THRESHOLD_CENTS = env.int("CASINO_PRIZE_REPORTING_THRESHOLD_CENTS", default=200_000)
if CASINO_PRIZE_REPORTING_THRESHOLD_CENTS <= 0:
    raise ImproperlyConfigured("CASINO_PRIZE_REPORTING_THRESHOLD_CENTS is above 0.")
# Dealer sign-in (README, Dealer sign-in and sessions): this many wrong PINs for one badge within
# the window lock the dealer until a supervisor unlocks them; this many failed sign-ins at one
# terminal within its window make it refuse sign-ins (429) until the window ends.
CASINO_DEALER_LOCKOUT_FAILURES = env.int("CASINO_DEALER_LOCKOUT_FAILURES", default=5)
CASINO_DEALER_LOCKOUT_WINDOW_SECONDS = env.int("CASINO_DEALER_LOCKOUT_WINDOW_SECONDS", default=900)
CASINO_TERMINAL_SIGN_IN_FAILURES = env.int("CASINO_TERMINAL_SIGN_IN_FAILURES", default=10)
CASINO_TERMINAL_SIGN_IN_WINDOW_SECONDS = env.int("CASINO_TERMINAL_SIGN_IN_WINDOW_SECONDS", default=300)
# A dealer's session ends this long after sign-in, or after this long without a change.
CASINO_DEALER_SESSION_MAX_AGE_SECONDS = env.int("CASINO_DEALER_SESSION_MAX_AGE_SECONDS", default=12 * 3600)
CASINO_DEALER_SESSION_IDLE_SECONDS = env.int("CASINO_DEALER_SESSION_IDLE_SECONDS", default=30 * 60)
# The floor console flags an open table whose terminal has changed nothing for this long.
CASINO_TERMINAL_SILENT_SECONDS = env.int("CASINO_TERMINAL_SILENT_SECONDS", default=10 * 60)

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / ".local" / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["casino.api.authentication.TokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["kernel.parsers.StrictJSONParser"],
    "EXCEPTION_HANDLER": "kernel.problems.problem_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Casino table-games back office API",
    "DESCRIPTION": "The REST contract dealer terminals and staff tools use (see API.md).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Docs assets are served from the sidecar package: casino networks are often offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # One name for the set of 52 cards, whichever field takes one.
    "ENUM_NAME_OVERRIDES": {"CardEnum": "casino.api.fields.CARDS"},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "kernel.schema.add_problem_responses",
    ],
}

# Celery: with no broker URL, kombu's filesystem transport needs no server.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://")
CELERY_BROKER_DIR = Path(env.str("CELERY_BROKER_DIR", default=str(BASE_DIR / ".local" / "broker")))
if CELERY_BROKER_URL == "filesystem://":
    for _sub in ("out", "processed", "control"):
        (CELERY_BROKER_DIR / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "control_folder": str(CELERY_BROKER_DIR / "control"),
        "data_folder_in": str(CELERY_BROKER_DIR / "out"),
        "data_folder_out": str(CELERY_BROKER_DIR / "out"),
        "processed_folder": str(CELERY_BROKER_DIR / "processed"),
        "store_processed": False,
    }
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 30 * 60
CELERY_TASK_SOFT_TIME_LIMIT = 25 * 60
CELERY_TIMEZONE = CASINO_TIME_ZONE
CELERY_BEAT_SCHEDULE_FILENAME = str(BASE_DIR / ".local" / "celerybeat-schedule")

# --- security (docs/security.md) -------------------------------------------------------------
# The same in every mode, the demo and development included, so a probe of any deployment sees
# what production sends.
# The reverse proxy terminates TLS and says so in X-Forwarded-Proto; it must set (never pass on)
# that header. Set DJANGO_TRUST_X_FORWARDED_PROTO=0 when the service is reached without one.
if env.bool("DJANGO_TRUST_X_FORWARDED_PROTO", default=True):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Cookies: never readable by scripts, SameSite always; Secure on every response to a secure
# request (config.middleware.SecureCookiesOnSecureRequests: the *_COOKIE_SECURE settings are
# static, and the demo is also reached over plain HTTP).
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
# HSTS: SecurityMiddleware sends it on secure requests only.
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=False)
SECURE_CONTENT_TYPE_NOSNIFF = True
# `check --deploy` warns of what is done another way here: Secure cookies by the middleware above
# on every secure request (W012, W016); the redirect from HTTP to HTTPS by the proxy, since the
# demo and development serve plain HTTP (W008).
SILENCED_SYSTEM_CHECKS = ["security.W008", "security.W012", "security.W016"]
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Staff sessions (config.middleware.StaffSessionTimeouts): a session ends after this many minutes
# without a request the staff member made (the floor's own refreshes do not count), and this
# many hours after sign-in whatever happens.
CASINO_STAFF_IDLE_MINUTES = env.int("CASINO_STAFF_IDLE_MINUTES", default=30)
CASINO_STAFF_SESSION_HOURS = env.int("CASINO_STAFF_SESSION_HOURS", default=12)
if CASINO_STAFF_IDLE_MINUTES < 1 or CASINO_STAFF_SESSION_HOURS < 1:
    raise ImproperlyConfigured("CASINO_STAFF_IDLE_MINUTES and CASINO_STAFF_SESSION_HOURS are at least 1.")
SESSION_COOKIE_AGE = CASINO_STAFF_SESSION_HOURS * 3600
# Staff sign-in (casino.services.staff_sign_in): this many failed sign-ins for one username within
# the window lock it until an admin unlocks it; this many failed sign-ins from one address (an
# IPv6 /64) within its window make every sign-in from there refused until the window ends.
CASINO_STAFF_LOCKOUT_FAILURES = env.int("CASINO_STAFF_LOCKOUT_FAILURES", default=5)
CASINO_STAFF_LOCKOUT_WINDOW_SECONDS = env.int("CASINO_STAFF_LOCKOUT_WINDOW_SECONDS", default=900)
CASINO_STAFF_ADDRESS_SIGN_IN_FAILURES = env.int("CASINO_STAFF_ADDRESS_SIGN_IN_FAILURES", default=10)
CASINO_STAFF_ADDRESS_SIGN_IN_WINDOW_SECONDS = env.int(
    "CASINO_STAFF_ADDRESS_SIGN_IN_WINDOW_SECONDS", default=900
)
# Content-Security-Policy (django-csp): everything from this origin, no inline script or style,
# no framing. The API docs pages relax it for themselves only (config/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        # Django admin's and the console's icons are SVG files; some widgets use data: images.
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A refused request (4xx) is one line; a server error (5xx) keeps its traceback.
    "filters": {"client_errors_without_traceback": {"()": "config.log_filters.ClientErrorsWithoutTraceback"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["client_errors_without_traceback"]}
    },
    "root": {"handlers": ["console"], "level": env.str("DJANGO_LOG_LEVEL", default="INFO")},
    "loggers": {"embedded_postgres": {"level": "WARNING"}},
}
CSRF_FAILURE_VIEW = "kernel.problems.csrf_failure"
