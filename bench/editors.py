"""The two editors of bench/editing.py: each a thread with a session of its own that opens a
vendor's change page, changes a field and saves through the real admin form, as a browser would
(``FormFields`` reads what it would submit), saving a refused edit again from the form."""

import html
import re
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser
from http.cookiejar import CookieJar
from typing import NamedTuple

OWN = {"bench-editor-1": "aws-trainium", "bench-editor-2": "google-tpu"}
SHARED = "nvidia"
PASSWORD = "bench-editor-password"
RETRIES = 5  # saves of one intended edit before it counts as failed (the measure)


class Save(NamedTuple):
    """One save an editor sent: on which vendor, the marker typed into which field, and how the
    admin answered; ``edit`` is the editor's n-th intended edit, ``attempt`` its n-th save."""

    username: str
    slug: str
    marker: str
    outcome: str
    status: int
    at: float
    field: str
    edit: int
    attempt: int


class FormFields(HTMLParser):
    """What a browser would submit from the change form: every named field with its value."""

    def __init__(self, form_id):
        super().__init__(convert_charrefs=True)
        self.form_id, self.inside, self.fields = form_id, False, []
        self._select = self._textarea = None
        self._options = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id") == self.form_id:
            self.inside = True
        if not self.inside or "name" not in a and tag != "option":
            return
        if tag == "input":
            kind = a.get("type", "text")
            if kind in {"checkbox", "radio"}:
                if "checked" in a:
                    self.fields.append((a["name"], a.get("value", "on")))
            elif kind not in {"file", "submit", "button", "image", "reset"}:
                self.fields.append((a["name"], a.get("value", "")))
        elif tag == "textarea":
            self._textarea = [a["name"], ""]
        elif tag == "select":
            self._select, self._options = (a["name"], "multiple" in a), []
        elif tag == "option" and self._select:
            self._options.append((a.get("value", ""), "selected" in a))

    def handle_data(self, data):
        if self._textarea:
            self._textarea[1] += data

    def handle_endtag(self, tag):
        if tag == "form" and self.inside:
            self.inside = False
        elif tag == "textarea" and self._textarea:
            self.fields.append(tuple(self._textarea))
            self._textarea = None
        elif tag == "select" and self._select:
            name, multiple = self._select
            chosen = [value for value, selected in self._options if selected]
            if not chosen and not multiple and self._options:
                chosen = [self._options[0][0]]
            self.fields += [(name, value) for value in chosen]
            self._select = None


def form_errors(page):
    """The messages of a refused form, so a failing run says which field it was."""
    items = re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', page, re.S)
    texts = [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", item)).split()) for item in items]
    return [text for text in texts if text] or ["(no field message)"]


class Editor(threading.Thread):
    together = threading.Barrier(len(OWN))  # both open the shared vendor, then both save

    def __init__(self, base, username, deadline, results, *, different=False):
        super().__init__(name=username)
        self.base, self.username, self.deadline, self.results = base, username, deadline, results
        self.different = different  # on the shared vendor, the second editor changes the verdict
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

    def open(self, path, data=None):
        body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
        try:
            response = self.opener.open(self.base + path, body, timeout=30)
            return response.status, response.geturl(), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, path, error.read().decode(errors="replace")

    def sign_in(self):
        _, _, page = self.open("/admin/login/")
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert found, f"no CSRF token on the sign-in page for {self.username}"
        token = found.group(1)
        status, url, _ = self.open(
            "/admin/login/",
            {
                "csrfmiddlewaretoken": token,
                "username": self.username,
                "password": PASSWORD,
                "next": "/admin/",
            },
        )
        assert url.endswith("/admin/"), f"{self.username} could not sign in ({status})"

    def run(self):
        from vendors.models import Vendor

        self.sign_in()
        pks = {slug: Vendor.objects.get(slug=slug).pk for slug in (OWN[self.username], SHARED)}
        n = 0
        while time.monotonic() < self.deadline:
            n += 1
            slug = SHARED if n % 3 == 0 else OWN[self.username]
            change = f"/admin/vendors/vendor/{pks[slug]}/change/"
            status, _, page = self.open(change)
            if status >= 500:
                self.results.append(
                    Save(self.username, slug, "", "error", status, time.monotonic(), "", n, 1)
                )
                continue
            if slug == SHARED:
                try:
                    self.together.wait(timeout=10)
                except threading.BrokenBarrierError:
                    break  # the other editor's time is up
            marker = f"Saved by {self.username}, save {n} at {time.time():.6f}."
            field = (
                "verdict"
                if slug == SHARED and self.different and self.username != "bench-editor-1"
                else "summary"
            )
            # One intended edit: typed once, then saved again from the refused form as it comes
            # back (the editor's text still in it), up to RETRIES times, as an editor would.
            for attempt in range(1, RETRIES + 1):
                form = FormFields("vendor_form")
                form.feed(page)
                fields = [(name, value) for name, value in form.fields if name != field]
                fields += [(field, marker), ("_continue", "Save and continue editing")]
                status, _, page = self.open(change, fields)
                outcome = self.outcome(status, page)
                if outcome == "invalid":
                    print(f"{self.username} on {slug}: the form said {form_errors(page)}", file=sys.stderr)
                self.results.append(
                    Save(self.username, slug, marker, outcome, status, time.monotonic(), field, n, attempt)
                )
                if outcome != "refused":
                    break

    @staticmethod
    def outcome(status, page):
        if status >= 500:
            return "error"
        if '<li class="success">' in page:
            # The admin's "… was changed successfully" (the page also holds the source dialog's
            # hidden error note, so the absence of "errornote" proves nothing).
            return "accepted"
        if "after you opened it" in page:
            return "refused"  # the edit guard: the other editor saved the same field first
        return "invalid"  # any other form error: the scraped form was not what a browser sends
