"""The editorial admin, driven the way an editor drives it: real GETs and POSTs."""

import datetime as dt
import errno
import io
import struct
import zlib

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import ProtectedError
from django.urls import reverse
from PIL import Image, PngImagePlugin

from claims.models import Source
from editorial import selectors
from tests import factories as f
from tests.factories import admin_change_url as change_url
from tests.factories import admin_inline_rows as inline_rows
from tests.factories import admin_rows_on_page as rows_on_page
from vendors.models import Axis, Vendor

INLINES = f.VENDOR_ADMIN_INLINES
ADD_URL = "/admin/vendors/vendor/add/"


# --- building POST payloads ------------------------------------------------------------


BLANK = ["summary", "what_it_is", "best_for", "watch_out", "verdict", "alternative_blurb"]


def vendor_fields(lane, **overrides):
    """The vendor's own fields as the add form submits them: blank text. The form has no
    publishing fields: publishing is a workflow step of its own."""
    data = {"name": "AWS Trainium", "slug": "aws-trainium", "company": "Amazon Web Services", "lane": lane.pk}
    return {**data, **dict.fromkeys(BLANK, ""), **overrides}


def vendor_post(lane, *, inlines=None, initial=None, **fields):
    """A whole change form: vendor fields and all four inline formsets (empty unless given)."""
    inlines, initial = inlines or {}, initial or {}
    data = vendor_fields(lane, **fields)
    for prefix in INLINES:
        data.update(inline_rows(prefix, inlines.get(prefix, []), initial.get(prefix, 0)))
    return data


def row(sources=(), **fields):
    """One inline row; ``sources`` go in as the list of pks the autocomplete submits."""
    return {**fields, "sources": pks(sources)}


def same_vendor(vendor, *, inlines=None, initial=None, **overrides):
    """The whole change form of an existing vendor, as saved unless overridden."""
    return f.vendor_admin_post(vendor, rows=inlines, initial=initial, **overrides)


def pks(objects):
    return [obj.pk for obj in objects]


# --- images ----------------------------------------------------------------------------


def image_bytes(size=(40, 30), image_format="PNG", pnginfo=None, color="teal"):
    out = io.BytesIO()
    extra = {"pnginfo": pnginfo} if pnginfo else {}
    Image.new("RGB", size, color).save(out, format=image_format, **extra)
    return out.getvalue()


def png_claiming(width, height):
    """A small PNG whose header claims ``width`` × ``height`` pixels: a decompression bomb."""
    content = bytearray(image_bytes(size=(1, 1)))
    header = b"IHDR" + struct.pack(">II", width, height) + bytes(content[24:29])
    content[12:29] = header
    content[29:33] = struct.pack(">I", zlib.crc32(header))
    return bytes(content)


def noisy_png():
    out = io.BytesIO()
    Image.effect_noise((120, 120), 64).convert("RGB").save(out, format="PNG")
    return out.getvalue()


def upload(name, content):
    """What the browser sends; its content type is not trusted, so none is given."""
    return SimpleUploadedFile(name, content)


def stored_logos(media_root):
    folder = media_root / "logos"
    return sorted(folder.iterdir()) if folder.exists() else []


# --- 1. every admin page opens ---------------------------------------------------------

BUILDERS = {  # by label, so a model registered later without a builder fails loudly below
    "vendors.Lane": f.make_lane,
    "vendors.Attribute": f.make_attribute,
    "vendors.Axis": f.make_axis,
    "claims.Source": f.make_source,
    "vendors.Vendor": f.make_vendor,
    "vendors.SiteSettings": lambda: apps.get_model("vendors", "SiteSettings").objects.create(),
    "auth.User": f.make_superuser,
    "auth.Group": lambda: Group.objects.create(name="Editors"),
    "comparisons.Comparison": f.make_comparison,
    "corrections.Correction": lambda: apps.get_model("corrections", "Correction").objects.create(
        vendor=f.make_vendor(),
        part="Memory: 96 GB",
        problem="It is 144 GB.",
        source_url="https://example.org/x",
    ),
    # Sign-in records (django-axes), for the superuser who lifts locks.
    # Staff second factors (django-otp), for a superuser to remove a lost one.
    "otp_totp.TOTPDevice": lambda: apps.get_model("otp_totp", "TOTPDevice").objects.create(
        user=f.make_superuser(), name="Authenticator app"
    ),
    "otp_static.StaticDevice": lambda: apps.get_model("otp_static", "StaticDevice").objects.create(
        user=f.make_superuser(), name="Recovery codes"
    ),
    "axes.AccessAttempt": lambda: apps.get_model("axes", "AccessAttempt").objects.create(
        username="editor", ip_address="203.0.113.7", user_agent="test", failures_since_start=5
    ),
    "axes.AccessLog": lambda: apps.get_model("axes", "AccessLog").objects.create(
        username="editor", ip_address="203.0.113.7", user_agent="test"
    ),
    "axes.AccessFailureLog": lambda: apps.get_model("axes", "AccessFailureLog").objects.create(
        username="editor", ip_address="203.0.113.7", user_agent="test", locked_out=True
    ),
    # The security events log (infra/security.py), read only.
    "infra.SecurityEvent": lambda: apps.get_model("infra", "SecurityEvent").objects.create(
        kind="sign_in_failed", username="editor", ip_address="203.0.113.7"
    ),
    # The stored pages' index (infra/stored/), read only.
    "infra.StoredPage": lambda: apps.get_model("infra", "StoredPage").objects.create(
        path="/vendors/x/", file="vendors/x/index.html", etag="e", release="r", error="answered 500"
    ),
    # Tasks queued for the worker (django-tasks-db), read only.
    "django_tasks_database.DBTaskResult": lambda: queued_task(),
    # E-mail about the workflow (editorial/notifications.py): the messages, read only, and the
    # signed-in user's own choice of how to get them (its list opens their own).
    "editorial.Notification": lambda: apps.get_model("editorial", "Notification").objects.create(
        recipient=f.make_superuser(), subject="Waiting for your review: AWS Trainium", body="…"
    ),
    "editorial.NotificationSetting": lambda: apps.get_model(
        "editorial", "NotificationSetting"
    ).objects.get_or_create(
        user=apps.get_model("auth", "User").objects.filter(is_superuser=True).latest("pk")
    )[0],
}


def queued_task():
    from django.test import override_settings
    from django_tasks_db.models import DBTaskResult

    from vendors.tasks import check_all_sources

    with override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}):
        return DBTaskResult.objects.get(id=check_all_sources.enqueue().id)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "model",
    # The staleness queue has no add or change page of its own: tests/claims/test_verification.py.
    [
        m
        for m in admin.site._registry
        if m._meta.label
        not in {
            "vendors.StaleFact",
            "vendors.StaleEvent",
            "vendors.StaleScore",
            "chips.StaleSpec",
            "chips.StaleAvailability",
            "chips.StalePrice",
            "chips.StaleResult",
        }
    ],
    ids=lambda m: m._meta.label,
)
def test_every_admin_page_opens_for_a_superuser(admin_client, model):
    label = model._meta.label
    assert label in BUILDERS, f"{label} is registered in the admin but this test cannot build one"
    name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
    # The add page first: a single-row model may refuse a second one. Sign-in records are
    # written by django-axes only, security events by the site, corrections by readers and
    # queued tasks by the code that enqueues them, never added by hand.
    added = admin_client.get(reverse(f"{name}_add")).status_code
    read_only = {"axes", "corrections", "infra", "django_tasks_database", "editorial"}
    assert added == (403 if model._meta.app_label in read_only else 200)

    obj = BUILDERS[label]()
    changelist = admin_client.get(reverse(f"{name}_changelist"), follow=True)
    assert changelist.status_code == 200
    # A queued task has no name of its own: its list shows its id.
    shown = obj.pk if label == "django_tasks_database.DBTaskResult" else obj
    assert str(shown) in changelist.content.decode()
    assert admin_client.get(reverse(f"{name}_changelist") + "?q=x", follow=True).status_code == 200
    assert admin_client.get(reverse(f"{name}_change", args=[obj.pk])).status_code == 200


@pytest.mark.django_db
def test_vendor_add_page_offers_the_four_inlines_with_a_score_row_per_active_axis(admin_client):
    active = [f.make_axis(), f.make_axis()]
    f.make_axis(is_active=False)
    formsets = [i.formset for i in admin_client.get(ADD_URL).context["inline_admin_formsets"]]
    assert [fs.prefix for fs in formsets] == INLINES
    scores = formsets[INLINES.index("scores")]
    assert [form.initial["axis"] for form in scores.forms] == pks(active)


# --- 2. a whole profile through the change form ----------------------------------------


@pytest.mark.django_db
def test_a_full_profile_posted_through_the_admin_is_saved_intact_as_a_draft(admin_client, visitor):
    lane, memory = f.make_lane(), f.make_attribute(name="Memory")
    axes = [f.make_axis(), f.make_axis()]
    f.make_axis(is_active=False)
    s = [f.make_source() for _ in range(6)]
    facts = [
        row(attribute=memory.pk, value="96 GB HBM3", vendor_stated="on", sources=s[:1], position=""),
        row(attribute=memory.pk, value="144 GB HBM3e (planned)", sources=s[1:3], position=""),
    ]
    events = [row(date="2025-12", text="Trainium3 announced", sources=s[3:4])]
    scores = [row(axis=a.pk, value=3 + i, reason=f"Reason {i}", sources=s[4:5]) for i, a in enumerate(axes)]
    faqs = [
        row(question="Who can buy it?", answer="Only AWS customers.", sources=s[5:], position=""),
        row(question="Does it run PyTorch?", answer="Through the Neuron SDK.", position=""),
    ]
    inlines = {"facts": facts, "events": events, "scores": scores, "faqs": faqs}
    data = vendor_post(lane, inlines=inlines, summary="**Custom** silicon.")

    response = admin_client.post(ADD_URL, data)

    assert response.status_code == 302, response.context and response.context["errors"]
    vendor = Vendor.objects.get(slug="aws-trainium")
    assert (vendor.name, vendor.company, vendor.lane) == ("AWS Trainium", "Amazon Web Services", lane)
    assert vendor.summary == "**Custom** silicon."
    # Saving writes the working copy only: nothing is published until a publisher says so.
    assert selectors.state(vendor) == "Draft" and not vendor.versions.exists()
    assert visitor.get("/vendors/aws-trainium/").status_code == 404

    saved_facts = list(vendor.facts.all())
    assert [(x.attribute, x.value, x.vendor_stated) for x in saved_facts] == [
        (memory, "96 GB HBM3", True),
        (memory, "144 GB HBM3e (planned)", False),
    ]
    assert [x.position for x in saved_facts] == [1, 2]
    assert [pks(x.sources.all()) for x in saved_facts] == [[s[0].pk], [s[1].pk, s[2].pk]]

    event = vendor.events.get()
    assert (event.date, event.precision, event.display_date) == (dt.date(2025, 12, 1), "month", "Dec 2025")
    assert pks(event.sources.all()) == [s[3].pk]

    saved_scores = list(vendor.scores.all())
    expected_scores = [(axis, 3 + i, f"Reason {i}") for i, axis in enumerate(axes)]
    assert [(x.axis, x.value, x.reason) for x in saved_scores] == expected_scores
    assert all(pks(x.sources.all()) == [s[4].pk] for x in saved_scores)

    saved_faqs = list(vendor.faqs.all())
    assert [x.question for x in saved_faqs] == ["Who can buy it?", "Does it run PyTorch?"]
    assert [pks(x.sources.all()) for x in saved_faqs] == [[s[5].pk], []]


@pytest.mark.django_db
def test_editing_a_vendor_keeps_its_rows_and_changes_one_fact_in_the_working_copy(admin_client, visitor):
    vendor, memory = f.make_vendor(), f.make_attribute()
    scored, unscored = f.make_axis(), f.make_axis()
    s1, s2 = f.make_source(), f.make_source()
    first = f.make_fact(vendor=vendor, attribute=memory, value="96 GB", position=1, sources=[s1])
    second = f.make_fact(vendor=vendor, attribute=memory, value="144 GB", position=2, sources=[s2])
    f.make_event(vendor=vendor, sources=[s1])
    f.make_score(vendor=vendor, axis=scored, value=4, sources=[s2])
    f.make_faq(vendor=vendor, sources=[s1, s2])
    spec = f.make_spec(vendor=vendor, sources=[s2])
    live = f.publish(vendor)

    rows, initial = rows_on_page(admin_client.get(change_url(vendor)))
    assert initial == {
        "facts": 2, "events": 1, "scores": 1, "faqs": 1,
        "specs": 1, "availability": 0, "prices": 0, "results": 0,
    }  # fmt: skip
    assert [r["axis"] for r in rows["scores"]] == [scored.pk, unscored.pk]  # + the pre-filled empty row
    rows["facts"][1]["value"] = "192 GB"
    rows["facts"].append(row(attribute=memory.pk, value="HBM4 later", position=""))

    response = admin_client.post(change_url(vendor), same_vendor(vendor, inlines=rows, initial=initial))

    assert response.status_code == 302, response.context and response.context["errors"]
    edited = Vendor.objects.get(pk=vendor.pk)
    assert edited.summary == vendor.summary
    facts = list(vendor.facts.all())
    assert [(x.value, x.position) for x in facts] == [("96 GB", 1), ("192 GB", 2), ("HBM4 later", 3)]
    assert pks(facts[:2]) == [first.pk, second.pk]
    assert [pks(x.sources.all()) for x in facts] == [[s1.pk], [s2.pk], []]
    assert (vendor.events.count(), vendor.faqs.count()) == (1, 1)
    assert pks(vendor.faqs.get().sources.all()) == [s1.pk, s2.pk]
    assert [(x.axis, x.value) for x in vendor.scores.all()] == [(scored, 4)]
    assert [(x.pk, pks(x.sources.all())) for x in vendor.specs.all()] == [(spec.pk, [s2.pk])]
    # Visitors still read the version published before the edit.
    assert selectors.live_version(edited) == live
    assert selectors.state(edited) == "Live + unpublished changes"
    page = visitor.get(vendor.get_absolute_url()).content.decode()
    assert "144 GB" in page and "192 GB" not in page and "HBM4 later" not in page


@pytest.mark.django_db
def test_a_vendor_scored_on_a_since_deactivated_axis_can_still_be_edited(admin_client):
    vendor, last_year = f.make_vendor(published=False), f.make_axis(name="2025 momentum")
    f.make_score(vendor=vendor, axis=last_year, value=3)
    Axis.objects.filter(pk=last_year.pk).update(is_active=False)
    rows, initial = rows_on_page(admin_client.get(change_url(vendor)))
    data = same_vendor(vendor, inlines=rows, initial=initial, summary="Edited.")

    response = admin_client.post(change_url(vendor), data)

    assert response.status_code == 302, response.context["errors"]
    assert vendor.scores.get().axis == last_year


# --- 3. sources from the vendor page: autocomplete and "add another" -------------------


@pytest.mark.django_db
def test_sources_can_be_found_and_added_from_a_vendors_page(admin_client):
    vendor = f.make_vendor()
    f.make_fact(vendor=vendor)

    html = admin_client.get(change_url(vendor)).content.decode()

    assert 'name="facts-0-sources"' in html
    assert 'class="admin-autocomplete"' in html and 'data-ajax--url="/admin/autocomplete/"' in html
    assert 'id="add_id_facts-0-sources"' in html
    assert "/admin/claims/source/add/?_to_field=id&amp;_popup=1" in html


@pytest.mark.django_db
def test_the_add_source_popup_creates_a_source_and_hands_it_back(admin_client):
    url = "/admin/claims/source/add/?_to_field=id&_popup=1"
    assert admin_client.get(url).status_code == 200

    data = {"title": "Trainium3 launch", "publisher": "AWS", "url": "https://aws.example/t3", "_popup": "1"}
    response = admin_client.post(url, {**data, "_to_field": "id", "accessed_on": "", "notes": ""})

    source = Source.objects.get(url="https://aws.example/t3")
    assert response.status_code == 200
    assert "admin/popup_response.html" in [t.name for t in response.templates]
    assert f'"value": "{source.pk}"' in response.context["popup_response_data"]


@pytest.mark.django_db
def test_source_autocomplete_returns_matching_sources_as_json(admin_client):
    wanted = f.make_source(title="Trainium3 launch")
    f.make_source(title="Unrelated paper")
    params = {"app_label": "vendors", "model_name": "fact", "field_name": "sources", "term": "trainium"}

    response = admin_client.get("/admin/autocomplete/", params)

    assert response.status_code == 200
    assert response.json()["results"] == [{"id": str(wanted.pk), "text": "Trainium3 launch"}]


# --- 4. cited sources cannot be deleted ------------------------------------------------


@pytest.mark.django_db
def test_admin_refuses_to_delete_a_cited_source_and_says_what_cites_it(admin_client):
    source = f.make_source(title="HBM datasheet")
    f.make_fact(vendor=f.make_vendor(name="Groq"), value="230 MB SRAM on die", sources=[source])
    url = f"/admin/claims/source/{source.pk}/delete/"

    for response in [admin_client.get(url), admin_client.post(url, {"post": "yes"})]:
        html = response.content.decode()
        assert response.status_code == 200
        assert "Cannot delete source" in html
        assert "230 MB SRAM on die" in html
    assert Source.objects.filter(pk=source.pk).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("make_cited", [f.make_fact, f.make_event, f.make_score, f.make_faq])
def test_a_cited_source_cannot_be_deleted_through_the_orm(make_cited):
    source = f.make_source()
    make_cited(vendor=f.make_vendor(), sources=[source])
    with pytest.raises(ProtectedError):
        source.delete()
    assert Source.objects.filter(pk=source.pk).exists()


@pytest.mark.django_db
def test_an_uncited_source_can_be_deleted_through_the_admin(admin_client):
    source = f.make_source()
    response = admin_client.post(f"/admin/claims/source/{source.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Source.objects.filter(pk=source.pk).exists()


# --- 5. logo uploads -------------------------------------------------------------------


def post_logo(client, logo, vendor=None):
    """Submit the add page, or the change page of ``vendor``, with a logo and no inline rows."""
    if vendor is None:
        return client.post(ADD_URL, {**vendor_post(f.make_lane()), "logo": logo})
    return client.post(change_url(vendor), {**same_vendor(vendor), "logo": logo})


@pytest.mark.django_db
def test_a_png_logo_is_stored_under_a_generated_name_and_re_encoded(admin_client, media_root):
    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", "SECRET-TEXT-CHUNK")
    content = image_bytes(size=(40, 30), pnginfo=info) + b"APPENDED-PAYLOAD"

    response = post_logo(admin_client, upload("acme-logo.png", content))

    assert response.status_code == 302
    logo = Vendor.objects.get().logo
    assert logo.name.startswith("logos/") and logo.name.endswith(".png")
    assert "acme" not in logo.name
    stored = logo.read()
    assert b"SECRET-TEXT-CHUNK" not in stored and b"APPENDED-PAYLOAD" not in stored
    with Image.open(io.BytesIO(stored)) as image:
        assert (image.format, image.size) == ("PNG", (40, 30))
    assert stored_logos(media_root) == [media_root / logo.name]


@pytest.mark.django_db
@pytest.mark.parametrize(("image_format", "extension"), [("JPEG", "jpg"), ("WEBP", "webp")])
def test_jpeg_and_webp_logos_are_accepted(admin_client, image_format, extension):
    response = post_logo(admin_client, upload(f"logo.{extension}", image_bytes(image_format=image_format)))
    assert response.status_code == 302
    logo = Vendor.objects.get().logo
    assert logo.name.endswith(f".{extension}")
    with Image.open(logo) as image:
        assert image.format == image_format


@pytest.mark.django_db
def test_a_logo_can_be_added_on_the_change_page_and_is_kept_when_not_resent(admin_client):
    vendor = f.make_vendor(published=False)

    assert post_logo(admin_client, upload("new.png", image_bytes()), vendor).status_code == 302
    vendor.refresh_from_db()
    stored_name = vendor.logo.name
    assert stored_name.startswith("logos/") and "new" not in stored_name

    assert admin_client.post(change_url(vendor), same_vendor(vendor, summary="Edited.")).status_code == 302
    vendor.refresh_from_db()
    assert (vendor.logo.name, vendor.summary) == (stored_name, "Edited.")


SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><script>alert(1)</script></svg>'
NOT_AN_IMAGE = "This file is not a readable PNG, JPEG or WebP image."
BOMB = "The logo has far more pixels than the limit of"
DAMAGED = "The image is damaged or cut short"
NOT_ALLOWED = "The logo must be a PNG, JPEG or WebP image (this file is GIF)."
PIXELS = "The logo is 200 × 200 pixels; the limit is 10000 pixels in all."
BYTES = "The logo is 4 KB; the limit is 1 KB."
REFUSED = {  # file name, content, settings, what the editor is told
    "text_named_png": ("logo.png", b"not an image\n" * 20, {}, NOT_AN_IMAGE),
    "svg": ("logo.svg", SVG, {}, NOT_AN_IMAGE),
    "gif": ("logo.gif", image_bytes(image_format="GIF"), {}, NOT_ALLOWED),
    "too_many_pixels": ("big.png", image_bytes(size=(200, 200)), {"LOGO_MAX_PIXELS": 10_000}, PIXELS),
    "too_many_bytes": ("heavy.png", image_bytes() + b"\0" * 4096, {"LOGO_MAX_BYTES": 1024}, BYTES),
    "decompression_bomb": ("bomb.png", png_claiming(30_000, 30_000), {}, BOMB),
    "truncated": ("cut.png", noisy_png()[:1500], {}, DAMAGED),
}


@pytest.mark.django_db
@pytest.mark.parametrize("kind", list(REFUSED))
def test_a_bad_logo_is_a_form_error_and_nothing_is_saved(admin_client, settings, media_root, kind):
    name, content, overrides, message = REFUSED[kind]
    for setting, value in overrides.items():
        setattr(settings, setting, value)

    response = post_logo(admin_client, upload(name, content))

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors["logo"]
    assert len(errors) == 1 and errors[0].startswith(message), errors
    assert not Vendor.objects.exists()
    assert stored_logos(media_root) == []


@pytest.mark.django_db
def test_a_full_disk_during_an_upload_is_a_form_error_that_keeps_the_input(
    admin_client, media_root, monkeypatch
):
    from django.core.files.storage import FileSystemStorage

    def full(self, name, content):
        path = media_root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")  # the file is created, then the disk fills up
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(FileSystemStorage, "_save", full)
    lane = f.make_lane()
    response = admin_client.post(
        ADD_URL,
        {**vendor_post(lane, name="Typed Chip", summary="Typed."), "logo": upload("l.png", image_bytes())},
    )

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors["logo"]
    assert errors == [
        "The logo could not be stored (No space left on device), so nothing was saved. Your other "
        "changes are still in the form: save again, or save without a logo."
    ]
    assert 'value="Typed Chip"' in response.content.decode()
    assert not Vendor.objects.exists()
    assert stored_logos(media_root) == []  # no 0-byte file left behind
