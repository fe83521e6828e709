"""
chipsite settings. Every value that differs between a laptop and production comes
from the environment; the defaults serve a developer laptop (SQLite, local-memory
cache). Production (DEBUG off) refuses to start without a real SECRET_KEY.
"""

import datetime as dt
import os
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP

from chipsite.environment import (
    cache,
    check_cdn_purger,
    checked_proxies,
    checked_secret_key,
    env_bool,
    env_list,
    one_of,
    pages_storage,
    replica_database,
    smtp_mailer,
)
from infra.files import add_static_headers
from infra.release import release

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG")

# Production (DEBUG off) refuses a missing or weak key (chipsite/environment.py).
SECRET_KEY = checked_secret_key(os.environ.get("SECRET_KEY", ""), debug=DEBUG)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.humanize",
    "django.contrib.postgres",
    "django.contrib.sitemaps",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_filters",
    "reversion",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "django_otp_webauthn",
    "infra",
    "editorial",
    "claims",
    "chips",
    "vendors",
    "comparisons",
    "discovery",
    "opendata",
    "ninja",  # the read API's docs page serves its Swagger UI from ninja's static files
    "api",
    "corrections",
    "django_tasks_db",  # always installed, so that its tables exist whichever backend runs tasks
]

MIDDLEWARE = [
    "infra.outage.OutageMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "infra.middleware.PermissionsPolicyMiddleware",
    "infra.middleware.CrossOriginResourcePolicyMiddleware",  # outside whitenoise: static files too
    "infra.middleware.AdminInputMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "infra.compression.PublicGZipMiddleware",
    # What every answer carries, stored ones too.
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # Outside the stored answer and the page cache: rate limit and CORS for every API answer.
    "api.middleware.ApiMiddleware",
    # Stored and cached pages for visitors with no session cookie (infra/stored/, infra/page_cache.py).
    "infra.stored.StoredAnswerMiddleware",
    "infra.page_cache.CachedAnswerMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "infra.sessions.SessionTimeoutMiddleware",  # before anything asks who the user is
    "django_otp.middleware.OTPMiddleware",
    "infra.second_factor.middleware.SecondFactorMiddleware",
    # A role change names who made it and from where (infra/security.py).
    "infra.security.CurrentRequestMiddleware",
    "infra.middleware.AnonymousBodyLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Innermost, so that a page from the store or the cache still gets every header above.
    "infra.stored.StoredPageMiddleware",
    "infra.page_cache.PublicPageCacheMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "chipsite.urls"

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
                "django.template.context_processors.csp",
            ],
        },
    },
]

WSGI_APPLICATION = "chipsite.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}

# Site search's typo tolerance: pg_trgm word similarity (0 to 1; discovery/trigrams.py on SQLite).
SEARCH_WORD_SIMILARITY = 0.4

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database that does not answer must not hold a worker (infra/outage.py answers 503).
    # No JIT: a page's reads run in a few ms, and PostgreSQL compiled those it guessed costly
    # (a chip list sorted by $ per PFLOP-hour at 10,000 vendors: 17 ms compiling, 6 running).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        connect_timeout=int(os.environ.get("DB_CONNECT_TIMEOUT", "3")),
        options=f"-c statement_timeout={int(os.environ.get('DB_STATEMENT_TIMEOUT_MS', '5000'))}"
        f" -c pg_trgm.word_similarity_threshold={SEARCH_WORD_SIMILARITY} -c jit=off",
    )
# A read replica for visitors' reads once the last change is this old (infra/replica.py).
REPLICA_LAG_SECONDS = float(os.environ.get("REPLICA_LAG_SECONDS", "5"))
if replica_url := os.environ.get("DATABASE_REPLICA_URL"):
    DATABASES["replica"] = replica_database(replica_url, primary=DATABASES["default"])
    DATABASE_ROUTERS = ["infra.replica.VisitorReadsToReplica"]
# A visitor's request is answered 503 after this many seconds (0: never; the admin is exempt).
REQUEST_DEADLINE_SECONDS = float(os.environ.get("REQUEST_DEADLINE_SECONDS", "10"))
# Requests under /data/ (open data files, built from the whole catalogue) get a longer deadline.
OPEN_DATA_DEADLINE_SECONDS = float(os.environ.get("OPEN_DATA_DEADLINE_SECONDS", "120"))

# Cached pages and data belong to one release of the code and templates (infra/release.py).
RELEASE = release(BASE_DIR)

REDIS_URL = os.environ.get("REDIS_URL", "")
# Redis, shared by every app server (fails open), when set; else each process's own memory.
CACHES = {"default": cache(REDIS_URL)}

# Visitors' pages, cached with the keys they show (infra/cache.py): how long kept and reused.
PAGE_CACHE_ENABLED = env_bool("PAGE_CACHE", True)
PAGE_CACHE_SECONDS = int(os.environ.get("PAGE_CACHE_SECONDS", "3600"))
PAGE_MAX_AGE = int(os.environ.get("PAGE_MAX_AGE", "30"))
PAGE_STALE_WHILE_REVALIDATE = int(os.environ.get("PAGE_STALE_WHILE_REVALIDATE", "60"))
PAGE_CACHE_SKIP_PREFIXES = ("/admin/", "/static/", "/media/", "/bench/", "/healthz", "/readyz")
# How long a CDN or browser may go on showing a page when the site answers with an error.
PAGE_STALE_IF_ERROR = int(os.environ.get("PAGE_STALE_IF_ERROR", "86400"))

# Stored pages (infra/stored/): public addresses rendered when what they show changes, kept as files.
STORED_PAGES_ENABLED = env_bool("STORED_PAGES", True)
STORED_PAGES_ROOT = Path(os.environ.get("STORED_PAGES_ROOT", BASE_DIR / "stored-pages"))
# How often the worker renders stored pages whose time has come.
STORED_PAGES_SWEEP_SECONDS = float(os.environ.get("STORED_PAGES_SWEEP_SECONDS", "30"))
# A task worker's lease (infra/leases.py): a task left running by a worker silent this long is queued again.
TASKS_WORKER_LEASE_SECONDS = float(os.environ.get("TASKS_WORKER_LEASE_SECONDS", "30"))
# Processes the worker renders a large set of pages with: one per core unless set.
STORED_PAGES_RENDER_JOBS = int(os.environ.get("STORED_PAGES_RENDER_JOBS", "0")) or os.cpu_count() or 1
# Memory per app-server process for stored pages compressed for browsers (by ETag, LRU).
STORED_PAGES_COMPRESSED_MB = float(os.environ.get("STORED_PAGES_COMPRESSED_MB", "64"))
# Or an S3 bucket shared by every app server and the worker; credentials are boto3's own.
STORED_PAGES_BUCKET = os.environ.get("STORED_PAGES_BUCKET", "")
STORED_PAGES_STORAGE = pages_storage(
    root=STORED_PAGES_ROOT,
    bucket=STORED_PAGES_BUCKET,
    endpoint_url=os.environ.get("STORED_PAGES_S3_ENDPOINT_URL"),
    region=os.environ.get("STORED_PAGES_S3_REGION"),
    prefix=os.environ.get("STORED_PAGES_S3_PREFIX", ""),
)
SITE_URL = os.environ.get(
    "SITE_URL",
    "http://127.0.0.1:8000" if DEBUG else f"https://{(ALLOWED_HOSTS or ['localhost'])[0]}",
).rstrip("/")

# A CDN in front, purged by surrogate key (infra/purge.py): "none", "fastly", "cloudflare" or "http".
CDN_PURGER = os.environ.get("CDN_PURGER", "none").strip().lower()
CDN_PURGE_URL = os.environ.get("CDN_PURGE_URL", "")
CDN_PURGE_TOKEN = os.environ.get("CDN_PURGE_TOKEN", "")
CDN_FASTLY_SERVICE_ID = os.environ.get("CDN_FASTLY_SERVICE_ID", "")
CDN_FASTLY_SOFT_PURGE = env_bool("CDN_FASTLY_SOFT_PURGE")
CDN_CLOUDFLARE_ZONE_ID = os.environ.get("CDN_CLOUDFLARE_ZONE_ID", "")
CDN_PURGE_HEADER = os.environ.get("CDN_PURGE_HEADER", "xkey")
CDN_PURGE_TIMEOUT = float(os.environ.get("CDN_PURGE_TIMEOUT", "5"))
check_cdn_purger(CDN_PURGER, globals())

# The read API (api/): requests per client address in each window of seconds; beyond, 429.
API_RATE_LIMIT = int(os.environ.get("API_RATE_LIMIT", "120"))
API_RATE_WINDOW = int(os.environ.get("API_RATE_WINDOW", "60"))

# bench/load.py serves a trivial view beside the pages, as the ceiling to compare with.
BENCHMARK = env_bool("BENCHMARK")

# Sign-in throttling (django-axes, infra/lockout.py): per username and address, and per address.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = dt.timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]  # the pair, together
LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("LOGIN_ADDRESS_FAILURE_LIMIT", "50"))
AXES_HANDLER = "infra.lockout.LockoutHandler"
AXES_LOCKOUT_CALLABLE = "infra.lockout.lockout_response"
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "infra.client.client_ip"
AXES_VERBOSE = False  # infra.auth logs each staff sign-in and failure in one line

# Proxies (addresses or CIDRs) whose X-Forwarded-For names the client (infra/client.py).
TRUSTED_PROXIES = checked_proxies(env_list("TRUSTED_PROXIES"))

# A second factor for staff (infra/second_factor/): "required", or "optional" (asked of the enrolled).
STAFF_SECOND_FACTOR = one_of(
    "STAFF_SECOND_FACTOR",
    os.environ.get("STAFF_SECOND_FACTOR", "optional" if DEBUG else "required"),
    ("required", "optional"),
)
OTP_TOTP_ISSUER = os.environ.get("OTP_ISSUER", "chipsite")
OTP_WEBAUTHN_RP_NAME = OTP_TOTP_ISSUER
# Passkeys are the request's own host's, and only its own origin may use them (see webauthn.py).
OTP_WEBAUTHN_RP_ID_CALLABLE = "infra.second_factor.webauthn.relying_party_id"
OTP_WEBAUTHN_HELPER_CLASS = "infra.second_factor.webauthn.SameOriginHelper"
OTP_WEBAUTHN_ALLOW_PASSWORDLESS_LOGIN = False  # a passkey is the second step, after the password
SILENCED_SYSTEM_CHECKS = ["otp_webauthn.E030"]  # no fixed origin list: SameOriginHelper gives it

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "infra.passwords.ContainsNameValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 12},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True
FORMAT_MODULE_PATH = ["infra.formats"]

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "pages": STORED_PAGES_STORAGE,
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Backups (infra/backup.py) keep timestamps to the microsecond.
SERIALIZATION_MODULES = {"exactjson": "infra.serializers"}

# Strict policy: no inline script or style anywhere, nothing from another host.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Sent by infra.middleware.CrossOriginResourcePolicyMiddleware; the API and logos say "cross-origin".
CROSS_ORIGIN_RESOURCE_POLICY = "same-origin"
# Static files carry a CSP of their own, nosniff and the resource policy (infra/files.py).
WHITENOISE_ADD_HEADERS_FUNCTION = add_static_headers
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# Staff sessions end 12 hours after sign-in or after 30 idle minutes (infra/sessions.py).
SESSION_MAX_SECONDS = 12 * 3600
SESSION_IDLE_SECONDS = 30 * 60
SESSION_COOKIE_AGE = SESSION_MAX_SECONDS

# HTTPS, on by default in production (DEBUG off); each can be turned off from the environment.
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_TLS_PROXY", not DEBUG) else None
)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
# Load balancers probe over plain HTTP: the probes answer there rather than redirect.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else str(365 * 24 * 3600)))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)

# Browser features the site never uses (sent by infra.middleware.PermissionsPolicyMiddleware).
_NEVER_USED = (
    "accelerometer autoplay camera display-capture encrypted-media fullscreen geolocation gyroscope"
    " magnetometer microphone midi payment picture-in-picture screen-wake-lock serial usb xr-spatial-tracking"
)
PERMISSIONS_POLICY: dict[str, list[str]] = {feature: [] for feature in _NEVER_USED.split()}
# Signing in with a passkey (infra/second_factor/), on our own pages only.
PERMISSIONS_POLICY["publickey-credentials-get"] = ["self"]

# A fact not verified within this many days is stale: queued for editors, marked for readers.
FRESHNESS_DAYS = int(os.environ.get("FRESHNESS_DAYS", "90"))

# `manage.py check_sources` (claims/source_checks.py): contact address, timeout, concurrency.
SOURCE_CHECK_CONTACT_URL = os.environ.get("SOURCE_CHECK_CONTACT_URL", "https://chipsite.example/")
SOURCE_CHECK_TIMEOUT = float(os.environ.get("SOURCE_CHECK_TIMEOUT", "10"))
SOURCE_CHECK_CONCURRENCY = int(os.environ.get("SOURCE_CHECK_CONCURRENCY", "4"))
# Off: a source resolving to a loopback, private or link-local address is not fetched.
SOURCE_CHECK_ALLOW_PRIVATE = env_bool("SOURCE_CHECK_ALLOW_PRIVATE", False)

# Background work (django.tasks): "immediate", in the enqueuing process, or "database" for run_worker.
_TASK_BACKENDS = {
    "immediate": "django.tasks.backends.immediate.ImmediateBackend",
    "database": "django_tasks_db.DatabaseBackend",
}
TASKS_BACKEND = one_of(
    "TASKS_BACKEND",
    os.environ.get("TASKS_BACKEND", "immediate").strip().lower() or "immediate",
    _TASK_BACKENDS,
)
# "default" for what a write enqueues, "periodic" for the schedule's long runs (infra/periodic.py).
TASKS = {"default": {"BACKEND": _TASK_BACKENDS[TASKS_BACKEND], "QUEUES": ["default", "periodic"]}}
# How often `run_worker` enqueues a check of every source (vendors/tasks.py), in hours.
SOURCE_CHECK_EVERY_HOURS = float(os.environ.get("SOURCE_CHECK_EVERY_HOURS", "24"))

# `manage.py prune_revisions`: revisions older than this go, each item's last few stay.
REVISIONS_KEEP_DAYS = int(os.environ.get("REVISIONS_KEEP_DAYS", "365"))
REVISIONS_KEEP_LAST = int(os.environ.get("REVISIONS_KEEP_LAST", "20"))

# Uploaded logos: formats, bytes and pixels we accept (see vendors/images.py).
LOGO_MAX_BYTES = int(os.environ.get("LOGO_MAX_BYTES", 2 * 1024 * 1024))
LOGO_MAX_PIXELS = int(os.environ.get("LOGO_MAX_PIXELS", 4096 * 4096))
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
# What a visitor who is not signed in may post (the sign-in form); more is refused unread.
ANONYMOUS_MAX_BODY_BYTES = 64 * 1024
# A long profile posts every row of its inlines back: Django's 1,000 refused about 170 rows.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 10_000

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {
        # Every staff sign-in, failed or not, whatever LOG_LEVEL says.
        "infra.auth": {"level": "INFO"},
        # A failed task is logged in one line by infra.tasklog, not with Django's whole traceback.
        "django.tasks": {"level": "CRITICAL"},
    },
}

# E-mail to editors (editorial/notifications.py) through SMTP; a laptop without EMAIL_HOST prints it.
_email_host = os.environ.get("EMAIL_HOST", "")
_email_ssl = env_bool("EMAIL_USE_SSL", False)
if _email_host or not DEBUG:
    MAILERS = {
        "default": smtp_mailer(
            host=_email_host or "localhost",
            port=int(os.environ.get("EMAIL_PORT", "465" if _email_ssl else "587")),
            username=os.environ.get("EMAIL_HOST_USER", ""),
            password=os.environ.get("EMAIL_HOST_PASSWORD", ""),
            use_ssl=_email_ssl,
            use_tls=env_bool("EMAIL_USE_TLS", not _email_ssl),
            timeout=int(os.environ.get("EMAIL_TIMEOUT", "10")),
        )
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "chipsite <editors@chipsite.invalid>")
