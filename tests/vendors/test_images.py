"""A logo is stored re-encoded with its pixels only: no EXIF, XMP, comment or ICC profile."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageCms, PngImagePlugin

from tests.vendors.test_admin import post_logo, upload
from vendors.images import clean_logo
from vendors.models import Vendor

SECRET = b"WHERE-AND-WHO"
SRGB_PROFILE = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
XMP = b'<x:xmpmeta xmlns:x="adobe:ns:meta/">' + SECRET + b"</x:xmpmeta>"


def picture(mode="RGB", size=(40, 30)):
    """A small picture whose pixels differ from place to place."""
    image = Image.new("RGB", size, "teal")
    image.paste((255, 165, 0), (0, 0, size[0] // 2, size[1] // 3))
    return image.convert(mode)


def exif(orientation=None):
    data = Image.Exif()
    data[0x010E] = SECRET.decode()  # ImageDescription
    data[0x8298] = "A. Photographer"  # Copyright
    if orientation:
        data[0x0112] = orientation
    return data


def encode(image, image_format, **metadata):
    out = io.BytesIO()
    image.save(out, format=image_format, **metadata)
    return out.getvalue()


def reencoded(content):
    return clean_logo(SimpleUploadedFile("logo", content)).read()


def assert_no_metadata(stored):
    assert SECRET not in stored
    with Image.open(io.BytesIO(stored)) as image:
        assert not {"comment", "exif", "xmp", "icc_profile", "XML:com.adobe.xmp"} & set(image.info)
        assert dict(image.getexif()) == {}
        assert getattr(image, "text", {}) == {}


@pytest.mark.django_db
def test_a_jpeg_logo_loses_its_comment_exif_and_profile_through_the_admin(admin_client, media_root):
    content = encode(picture(), "JPEG", comment=SECRET, exif=exif(), icc_profile=SRGB_PROFILE, quality=95)
    assert SECRET in content

    response = post_logo(admin_client, upload("logo.jpg", content))

    assert response.status_code == 302
    stored = Vendor.objects.get().logo.read()
    assert_no_metadata(stored)
    with Image.open(io.BytesIO(stored)) as image:
        assert (image.format, image.size) == ("JPEG", (40, 30))


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "P"])
def test_a_png_logo_loses_its_text_chunks_exif_and_profile_and_keeps_its_pixels(mode):
    original = picture(mode)
    chunks = PngImagePlugin.PngInfo()
    chunks.add_text("Comment", SECRET.decode())
    chunks.add_text("Author", SECRET.decode(), zip=True)  # zTXt
    chunks.add_itxt("XML:com.adobe.xmp", XMP.decode())
    content = encode(original, "PNG", pnginfo=chunks, exif=exif(), icc_profile=SRGB_PROFILE)

    stored = reencoded(content)

    assert_no_metadata(stored)
    with Image.open(io.BytesIO(stored)) as image:
        assert image.size == (40, 30)
        assert image.convert("RGBA").tobytes() == original.convert("RGBA").tobytes()


def test_a_png_logo_keeps_its_transparent_colour():
    original = picture("P")
    content = encode(original, "PNG", transparency=original.getpixel((0, 0)))

    with Image.open(io.BytesIO(reencoded(content))) as image:
        assert image.convert("RGBA").getpixel((0, 0))[3] == 0
        assert image.convert("RGBA").getpixel((39, 29))[3] == 255


def test_a_webp_logo_loses_its_exif_xmp_and_profile():
    content = encode(picture("RGBA"), "WEBP", exif=exif(), xmp=XMP, icc_profile=SRGB_PROFILE)

    stored = reencoded(content)

    assert_no_metadata(stored)
    with Image.open(io.BytesIO(stored)) as image:
        assert image.size == (40, 30)


def test_a_logo_photographed_sideways_is_stored_upright():
    """Its EXIF said how to turn it; with the EXIF gone the pixels are turned instead."""
    content = encode(picture(size=(40, 30)), "JPEG", exif=exif(orientation=6))

    with Image.open(io.BytesIO(reencoded(content))) as image:
        assert image.size == (30, 40)
