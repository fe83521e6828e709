"""
chipsite settings. Every value that differs between a laptop and production comes
from the environment; the defaults serve a developer laptop (SQLite, local-memory
cache). Production (DEBUG off) refuses to start without a real SECRET_KEY.
"""

import datetime as dt
import ipaddress
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from infra.files import add_static_headers
from infra.release import release

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default=False):
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name, default=""):
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set it in the environment, or set DEBUG=1 on a laptop."
        )
    SECRET_KEY = "insecure-development-key-never-use-in-production"
elif not DEBUG and (len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5):
    # Django's own rule for a key strong enough to sign sessions (check --deploy W009).
    raise ImproperlyConfigured(
        "SECRET_KEY is too weak: it needs at least 50 characters and 5 different ones. "
        'Make one with: python -c "import secrets; print(secrets.token_urlsafe(50))"'
    )

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
    "infra.cache.PublicGZipMiddleware",
    # What every answer carries, stored ones too: outside the stored answer below.
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # Outside the stored answer and the page cache, so that an API answer from either still counts
    # against the rate limit and carries the CORS headers.
    "api.middleware.ApiMiddleware",
    # A visitor without a session cookie asking for a stored page: answered here, before the
    # layers that only matter to someone signed in (infra/stored/middleware.py).
    "infra.stored.StoredAnswerMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "infra.sessions.SessionTimeoutMiddleware",  # before anything asks who the user is
    "django_otp.middleware.OTPMiddleware",
    "infra.second_factor.middleware.SecondFactorMiddleware",
    # Lets a role change saved through a model name who made it and from where (infra/security.py).
    "infra.security.CurrentRequestMiddleware",
    "infra.middleware.AnonymousBodyLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Innermost, so that a page served from the store or the cache still gets every header above:
    # stored pages (addresses without a query string) to anyone with a session cookie who is not
    # signed in, renders of them, and stale-if-error; then the cache for the other pages.
    "infra.stored.StoredPageMiddleware",
    "infra.cache.PublicPageCacheMiddleware",
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

# Site search counts a misspelt word of four letters or more as found in a title this much like
# it by pg_trgm's word similarity (0 to 1; pg_trgm's default of 0.6 misses "nvdia" for "Nvidia"):
# PostgreSQL's pg_trgm and SQLite's port of it (discovery/trigrams.py) both read this value.
SEARCH_WORD_SIMILARITY = 0.4

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database that does not answer must not hold a worker: give up connecting after
    # DB_CONNECT_TIMEOUT seconds and on any statement after DB_STATEMENT_TIMEOUT_MS (0: never;
    # set it so for a long migration). Visitors then get the 503 page (infra/outage.py).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        connect_timeout=int(os.environ.get("DB_CONNECT_TIMEOUT", "3")),
        # Site search's typo tolerance (SEARCH_WORD_SIMILARITY), set per connection for free.
        options=f"-c statement_timeout={int(os.environ.get('DB_STATEMENT_TIMEOUT_MS', '5000'))}"
        f" -c pg_trgm.word_similarity_threshold={SEARCH_WORD_SIMILARITY}",
    )
# A read replica for visitors' reads (infra/replica.py): anonymous public pages read it
# once the content token is REPLICA_LAG_SECONDS old, so a page cached after a write always
# comes from the primary; the admin reads and writes the primary only.
REPLICA_LAG_SECONDS = float(os.environ.get("REPLICA_LAG_SECONDS", "5"))
if replica_url := os.environ.get("DATABASE_REPLICA_URL"):
    DATABASES["replica"] = {
        **dj_database_url.parse(
            replica_url, conn_max_age=DATABASES["default"]["CONN_MAX_AGE"], conn_health_checks=True
        ),
        "OPTIONS": dict(DATABASES["default"].get("OPTIONS", {})),
        "TEST": {"MIRROR": "default"},
    }
    DATABASE_ROUTERS = ["infra.replica.VisitorReadsToReplica"]
# A visitor's request is cut off after this many seconds and answered 503 (0: never); the
# admin is exempt. Catches a database that accepts connections and then never answers.
REQUEST_DEADLINE_SECONDS = float(os.environ.get("REQUEST_DEADLINE_SECONDS", "10"))
# Open data files are built from the whole catalogue once per change (the whole-site file of
# 10,000 vendors: 67 MB in about 10 s): requests under /data/ get this longer deadline.
OPEN_DATA_DEADLINE_SECONDS = float(os.environ.get("OPEN_DATA_DEADLINE_SECONDS", "120"))

# Cached pages and data belong to one release of the code and templates (infra/release.py).
RELEASE = release(BASE_DIR)

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    # Shared by every app server. If Redis is down, pages are still served, uncached
    # (the backend fails open after a short timeout and logs it once).
    CACHES = {
        "default": {
            "BACKEND": "infra.cache_backends.FailOpenRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "chipsite",
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Visitors' pages are cached under the content token (infra/cache.py): fresh on the
# next request after any write, whatever these say. They bound how long an entry is kept
# (PAGE_CACHE_SECONDS) and how long browsers and CDNs may reuse a page before asking again.
PAGE_CACHE_ENABLED = env_bool("PAGE_CACHE", True)
PAGE_CACHE_SECONDS = int(os.environ.get("PAGE_CACHE_SECONDS", "3600"))
PAGE_MAX_AGE = int(os.environ.get("PAGE_MAX_AGE", "30"))
PAGE_STALE_WHILE_REVALIDATE = int(os.environ.get("PAGE_STALE_WHILE_REVALIDATE", "60"))
PAGE_CACHE_SKIP_PREFIXES = ("/admin/", "/static/", "/media/", "/bench/", "/healthz", "/readyz")
# How long a CDN or browser may go on showing a page when the site answers with an error.
PAGE_STALE_IF_ERROR = int(os.environ.get("PAGE_STALE_IF_ERROR", "86400"))

# Stored pages (infra/stored/): every public address without a query string is rendered when
# what it shows changes and kept as a file in STORED_PAGES_ROOT (a folder beside the media, laid
# out as the public site: the export nginx can serve), served without rendering, and while the
# database is away. SITE_URL is the one address they are rendered for (pages name themselves).
STORED_PAGES_ENABLED = env_bool("STORED_PAGES", True)
STORED_PAGES_ROOT = Path(os.environ.get("STORED_PAGES_ROOT", BASE_DIR / "stored-pages"))
# How often the worker renders stored pages whose time has come (a scheduled version, midnight).
STORED_PAGES_SWEEP_SECONDS = float(os.environ.get("STORED_PAGES_SWEEP_SECONDS", "30"))
# Processes the worker renders a large set of pages with (an axis edit, a deploy): one per core
# unless set. Tasks run in a web process when there is no worker: those render in one.
STORED_PAGES_RENDER_JOBS = int(os.environ.get("STORED_PAGES_RENDER_JOBS", "0")) or os.cpu_count() or 1
# What each app-server process keeps of the stored pages it has compressed (brotli or gzip) for
# browsers, by ETag, least recently used first out: 64 MB holds about 5,000 brotli'd profiles.
STORED_PAGES_COMPRESSED_MB = float(os.environ.get("STORED_PAGES_COMPRESSED_MB", "64"))
# Or a bucket every app server and the worker share (django-storages' S3Storage), when
# STORED_PAGES_BUCKET names one: STORED_PAGES_S3_ENDPOINT_URL for an S3 other than AWS's (MinIO,
# moto), STORED_PAGES_S3_REGION, and STORED_PAGES_S3_PREFIX, a folder in the bucket to keep them
# under. Credentials are boto3's own (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, an
# instance role), never a setting. Objects get no ACL (the bucket's policy decides who reads
# them) and their URLs no signature.
STORED_PAGES_BUCKET = os.environ.get("STORED_PAGES_BUCKET", "")
STORED_PAGES_STORAGE = (
    {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": STORED_PAGES_BUCKET,
            "endpoint_url": os.environ.get("STORED_PAGES_S3_ENDPOINT_URL") or None,
            "region_name": os.environ.get("STORED_PAGES_S3_REGION") or None,
            "location": os.environ.get("STORED_PAGES_S3_PREFIX", "").strip("/"),
            "file_overwrite": True,  # one address, one object, replaced whole by each render
            "querystring_auth": False,
            "default_acl": None,
        },
    }
    if STORED_PAGES_BUCKET
    else {
        "BACKEND": "infra.stored.AtomicFileSystemStorage",
        "OPTIONS": {"location": STORED_PAGES_ROOT, "base_url": "/"},
    }
)
SITE_URL = os.environ.get(
    "SITE_URL",
    "http://127.0.0.1:8000" if DEBUG else f"https://{(ALLOWED_HOSTS or ['localhost'])[0]}",
).rstrip("/")

# A CDN in front (infra/purge.py): pages name their surrogate keys in Surrogate-Key (Fastly) and
# Cache-Tag (Cloudflare), and pages rendered again are purged from it by key. CDN_PURGER says
# which: "none" (nothing is sent), "fastly" (CDN_PURGE_TOKEN, an API token allowed to purge, and
# CDN_FASTLY_SERVICE_ID; CDN_FASTLY_SOFT_PURGE marks copies stale rather than dropping them),
# "cloudflare" (CDN_PURGE_TOKEN with the Cache Purge permission, CDN_CLOUDFLARE_ZONE_ID) or
# "http" (a PURGE request to CDN_PURGE_URL with the keys in the CDN_PURGE_HEADER header, for a
# Varnish or nginx cache; CDN_PURGE_TOKEN, if set, as a bearer token). For Fastly and Cloudflare,
# CDN_PURGE_URL replaces the API's address (tests point it at a local server). A purge that gets
# no answer within CDN_PURGE_TIMEOUT seconds, or a failure, is retried once, then logged.
CDN_PURGER = os.environ.get("CDN_PURGER", "none").strip().lower()
CDN_PURGE_URL = os.environ.get("CDN_PURGE_URL", "")
CDN_PURGE_TOKEN = os.environ.get("CDN_PURGE_TOKEN", "")
CDN_FASTLY_SERVICE_ID = os.environ.get("CDN_FASTLY_SERVICE_ID", "")
CDN_FASTLY_SOFT_PURGE = env_bool("CDN_FASTLY_SOFT_PURGE")
CDN_CLOUDFLARE_ZONE_ID = os.environ.get("CDN_CLOUDFLARE_ZONE_ID", "")
CDN_PURGE_HEADER = os.environ.get("CDN_PURGE_HEADER", "xkey")
CDN_PURGE_TIMEOUT = float(os.environ.get("CDN_PURGE_TIMEOUT", "5"))
_cdn_needs = {
    "none": [],
    "fastly": ["CDN_PURGE_TOKEN", "CDN_FASTLY_SERVICE_ID"],
    "cloudflare": ["CDN_PURGE_TOKEN", "CDN_CLOUDFLARE_ZONE_ID"],
    "http": ["CDN_PURGE_URL"],
}
if CDN_PURGER not in _cdn_needs:
    raise ImproperlyConfigured('CDN_PURGER must be "none", "fastly", "cloudflare" or "http".')
if _cdn_missing := [name for name in _cdn_needs[CDN_PURGER] if not globals()[name]]:
    raise ImproperlyConfigured(f"CDN_PURGER={CDN_PURGER} needs {' and '.join(_cdn_missing)}.")

# The read API (api/): each client address may make API_RATE_LIMIT requests in every
# API_RATE_WINDOW seconds, counted in the shared cache; beyond that, 429 with Retry-After.
API_RATE_LIMIT = int(os.environ.get("API_RATE_LIMIT", "120"))
API_RATE_WINDOW = int(os.environ.get("API_RATE_WINDOW", "60"))

# bench/load.py serves a trivial view beside the pages, as the ceiling to compare with.
BENCHMARK = env_bool("BENCHMARK")

# Sign-in throttling (django-axes, infra/lockout.py): after LOGIN_FAILURE_LIMIT failures for one
# username from one address, sign-in pauses for that pair (the same username elsewhere and other
# usernames there go on); after LOGIN_ADDRESS_FAILURE_LIMIT failures from one address, whatever
# the usernames, it pauses for the address. Either lasts LOGIN_COOLOFF_MINUTES, answered 429 with
# Retry-After, the same whether or not the user exists. A superuser sees the failures under
# "Access attempts" and lifts a pause with "Lift the sign-in pause".
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

# The client's address (infra/client.py) for lockouts, rate limits, corrections and logs is the
# peer (REMOTE_ADDR) unless the peer is one of these proxies (addresses or CIDRs, comma-separated:
# 127.0.0.1 behind nginx on the same machine, the load balancer's subnet in a cloud); then it is
# the right-most X-Forwarded-For hop that is not one of them. Empty: X-Forwarded-For is ignored.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES")
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: {_proxy!r} is not an address or a CIDR.") from None

# A second factor for staff (infra/second_factor/): a passkey or an authenticator app (TOTP),
# with recovery codes. "required": no admin page without it, and staff enrol at their first
# sign-in. "optional" (the default with DEBUG on, so `make run` needs none): asked only of those
# who enrolled one.
STAFF_SECOND_FACTOR = os.environ.get("STAFF_SECOND_FACTOR", "optional" if DEBUG else "required")
if STAFF_SECOND_FACTOR not in {"required", "optional"}:
    raise ImproperlyConfigured('STAFF_SECOND_FACTOR must be "required" or "optional".')
OTP_TOTP_ISSUER = os.environ.get("OTP_ISSUER", "chipsite")
OTP_WEBAUTHN_RP_NAME = OTP_TOTP_ISSUER
# Passkeys are the request's own host's, and only its own origin may use them (see webauthn.py).
OTP_WEBAUTHN_RP_ID_CALLABLE = "infra.second_factor.webauthn.relying_party_id"
OTP_WEBAUTHN_HELPER_CLASS = "infra.second_factor.webauthn.SameOriginHelper"
OTP_WEBAUTHN_ALLOW_PASSWORDLESS_LOGIN = False  # a passkey is the second step, after the password
SILENCED_SYSTEM_CHECKS = ["otp_webauthn.E030"]  # no fixed origin list: SameOriginHelper gives it

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
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
# Sent by infra.middleware.CrossOriginResourcePolicyMiddleware (Django has no setting for it);
# the read API and logos, which other sites may use, say "cross-origin".
CROSS_ORIGIN_RESOURCE_POLICY = "same-origin"
# Static files carry a CSP of their own, nosniff and the resource policy (infra/files.py).
WHITENOISE_ADD_HEADERS_FUNCTION = add_static_headers
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# Staff sessions (OWASP ASVS 3.3.2, level 2): 12 hours from sign-in however active, and 30 minutes
# without a request end them (infra/sessions.py). The cookie lives no longer than the session.
SESSION_MAX_SECONDS = 12 * 3600
SESSION_IDLE_SECONDS = 30 * 60
SESSION_COOKIE_AGE = SESSION_MAX_SECONDS

# HTTPS, on by default in production (DEBUG off); each can be turned off from the environment.
# Behind a load balancer that ends TLS, it says what the client used in X-Forwarded-Proto
# (BEHIND_TLS_PROXY: the scheme only; the client's address is TRUSTED_PROXIES' business).
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_TLS_PROXY", not DEBUG) else None
)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
# Load balancers probe over plain HTTP: the probes answer there rather than redirect.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else str(365 * 24 * 3600)))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)

# Browser features the site never uses, denied to it and to anything it could embed
# (sent by infra.middleware.PermissionsPolicyMiddleware).
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "encrypted-media",
        "fullscreen",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "picture-in-picture",
        "screen-wake-lock",
        "serial",
        "usb",
        "xr-spatial-tracking",
    )
}
# Signing in with a passkey (infra/second_factor/), on our own pages only.
PERMISSIONS_POLICY["publickey-credentials-get"] = ["self"]

# A fact not verified within this many days is stale: it is queued for editors and
# marked for readers.
FRESHNESS_DAYS = int(os.environ.get("FRESHNESS_DAYS", "90"))

# `manage.py check_sources` (vendors/source_checks.py): the address its user agent gives site
# owners to reach us (set it to the site's own page in production), how long one page may
# take, and how many pages are fetched at once.
SOURCE_CHECK_CONTACT_URL = os.environ.get("SOURCE_CHECK_CONTACT_URL", "https://chipsite.example/")
SOURCE_CHECK_TIMEOUT = float(os.environ.get("SOURCE_CHECK_TIMEOUT", "10"))
SOURCE_CHECK_CONCURRENCY = int(os.environ.get("SOURCE_CHECK_CONCURRENCY", "4"))
# Off: a source (or a redirect) resolving to a loopback, private or link-local address is not
# fetched, so an editor's URL cannot probe the server's own network.
SOURCE_CHECK_ALLOW_PRIVATE = env_bool("SOURCE_CHECK_ALLOW_PRIVATE", False)

# Background work (django.tasks; infra/periodic.py, `manage.py run_worker`). TASKS_BACKEND:
# "immediate" (the default) runs a task in the process that enqueues it, at once, with DEBUG off
# too, so `make run` needs no second process; "database" stores it in the database
# (django-tasks-db) for `manage.py run_worker` to run, on as many servers as you like. Either way
# the periodic schedule runs from `manage.py run_worker` only, never from a request.
TASKS_BACKEND = os.environ.get("TASKS_BACKEND", "immediate").strip().lower() or "immediate"
_TASK_BACKENDS = {
    "immediate": "django.tasks.backends.immediate.ImmediateBackend",
    "database": "django_tasks_db.DatabaseBackend",
}
if TASKS_BACKEND not in _TASK_BACKENDS:
    raise ImproperlyConfigured('TASKS_BACKEND must be "immediate" or "database".')
# Two queues: "default" for what a write enqueues (a publish's render), "periodic" for the
# schedule's long runs (infra/periodic.py), which a worker of their own can take.
TASKS = {"default": {"BACKEND": _TASK_BACKENDS[TASKS_BACKEND], "QUEUES": ["default", "periodic"]}}
# How often `run_worker` enqueues a check of every source (vendors/tasks.py), in hours.
SOURCE_CHECK_EVERY_HOURS = float(os.environ.get("SOURCE_CHECK_EVERY_HOURS", "24"))

# Revision storage stays bounded: `manage.py prune_revisions` deletes revisions older
# than this many days, always keeping each item's last few.
REVISIONS_KEEP_DAYS = int(os.environ.get("REVISIONS_KEEP_DAYS", "365"))
REVISIONS_KEEP_LAST = int(os.environ.get("REVISIONS_KEEP_LAST", "20"))

# Uploaded logos: formats, bytes and pixels we accept (see vendors/images.py).
LOGO_MAX_BYTES = int(os.environ.get("LOGO_MAX_BYTES", 2 * 1024 * 1024))
LOGO_MAX_PIXELS = int(os.environ.get("LOGO_MAX_PIXELS", 4096 * 4096))
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
# What a visitor who is not signed in may post (the sign-in form); more is refused unread.
ANONYMOUS_MAX_BODY_BYTES = 64 * 1024
# A long profile posts every row of its inlines back (six fields a row): 1,000 (Django's
# default) refused the save of a profile with about 170 rows.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 10_000

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {
        # Every staff sign-in, failed or not, whatever LOG_LEVEL says.
        "infra.auth": {"level": "INFO"},
        # A task that fails is logged in one line by infra.tasklog (its traceback at DEBUG, and
        # with the database backend in the task's result); Django's own record of it would add
        # the whole traceback to every failure.
        "django.tasks": {"level": "CRITICAL"},
    },
}

# E-mail (editorial/notifications.py: submits, requested changes, publishes, the daily digest),
# through Django's mailers. EMAIL_HOST names the SMTP server; without one, a laptop (DEBUG)
# prints messages to the console instead. EMAIL_PORT (587 with STARTTLS, 465 with EMAIL_USE_SSL),
# EMAIL_HOST_USER and EMAIL_HOST_PASSWORD, EMAIL_USE_TLS (STARTTLS, on unless EMAIL_USE_SSL),
# EMAIL_TIMEOUT (seconds, 10). A message that fails is kept and retried by the worker every
# minute; the admin lists it (Editorial workflow > Notifications). Tests use Django's outbox.
_email_host = os.environ.get("EMAIL_HOST", "")
_email_ssl = env_bool("EMAIL_USE_SSL", False)
if _email_host or not DEBUG:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": _email_host or "localhost",
                "port": int(os.environ.get("EMAIL_PORT", "465" if _email_ssl else "587")),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_ssl": _email_ssl,
                "use_tls": env_bool("EMAIL_USE_TLS", not _email_ssl),
                "timeout": int(os.environ.get("EMAIL_TIMEOUT", "10")),
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "chipsite <editors@chipsite.invalid>")
