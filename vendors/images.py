"""Logo uploads: only real PNG, JPEG or WebP images within limits, re-encoded by Pillow,
stored as soon as they are checked so that a storage failure is a form error."""

import io
import logging

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile, UploadedFile
from PIL import Image, ImageCms, ImageOps, UnidentifiedImageError

log = logging.getLogger(__name__)

SRGB = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))

FORMATS = {"PNG": ("png", "image/png"), "JPEG": ("jpg", "image/jpeg"), "WEBP": ("webp", "image/webp")}


def clean_logo(upload) -> SimpleUploadedFile:
    """Validate an uploaded logo and return a fresh encoding of its pixels.

    Re-encoding drops whatever else the file carried (metadata, appended data,
    polyglot payloads); the caller stores it under a generated name.
    """
    if upload.size > settings.LOGO_MAX_BYTES:
        raise ValidationError(
            "The logo is %(size)s KB; the limit is %(limit)s KB.",
            params={"size": upload.size // 1024, "limit": settings.LOGO_MAX_BYTES // 1024},
            code="too_large",
        )
    upload.seek(0)
    try:
        with Image.open(upload) as probe:
            image_format = probe.format
            width, height = probe.size
            if image_format not in FORMATS:
                raise ValidationError(
                    "The logo must be a PNG, JPEG or WebP image (this file is %(format)s).",
                    params={"format": image_format or "unknown"},
                    code="format",
                )
            if width * height > settings.LOGO_MAX_PIXELS:
                raise ValidationError(
                    "The logo is %(w)s × %(h)s pixels; the limit is %(limit)s pixels in all.",
                    params={"w": width, "h": height, "limit": settings.LOGO_MAX_PIXELS},
                    code="too_many_pixels",
                )
            probe.verify()
        upload.seek(0)
        with Image.open(upload) as image:
            image.load()
            encoded = _reencode(image, image_format=image_format)
    except ValidationError:
        raise
    except Image.DecompressionBombError:
        # Pillow refuses to even open an image this large: say so in our own terms.
        raise ValidationError(
            "The logo has far more pixels than the limit of %(limit)s in all.",
            params={"limit": settings.LOGO_MAX_PIXELS},
            code="too_many_pixels",
        ) from None
    except UnidentifiedImageError:
        raise ValidationError(
            "This file is not a readable PNG, JPEG or WebP image.", code="invalid_image"
        ) from None
    except (OSError, SyntaxError, ValueError):
        raise ValidationError(
            "The image is damaged or cut short (the file ends before its pixels do). "
            "Export it again and upload the whole file.",
            code="damaged_image",
        ) from None
    extension, content_type = FORMATS[image_format]
    return SimpleUploadedFile(f"logo.{extension}", encoded, content_type=content_type)


def _reencode(image: Image.Image, *, image_format: str) -> bytes:
    """``image``'s pixels, upright and in sRGB, encoded afresh with no metadata: no EXIF, XMP,
    comment (JPEG's COM segment, PNG's text chunks) nor ICC profile. Pillow copies some of
    these from ``info`` when it saves (a JPEG's comment, a PNG's profile), so the saved image
    gets an ``info`` of its own holding only a PNG's or GIF's transparent colour, which is
    pixel data."""
    kept = _in_srgb(ImageOps.exif_transpose(image))
    if image_format == "JPEG":
        kept = kept.convert("RGB")
    elif kept.mode not in {"RGB", "RGBA", "L", "LA", "P"}:
        kept = kept.convert("RGBA")
    transparency = kept.info.get("transparency")
    kept.info = {} if transparency is None else {"transparency": transparency}
    out = io.BytesIO()
    if image_format == "JPEG":
        kept.save(out, format="JPEG", quality=90, optimize=True)
    else:
        kept.save(out, format=image_format)
    return out.getvalue()


def _in_srgb(image: Image.Image) -> Image.Image:
    """``image`` with the colours its ICC profile describes converted to sRGB, the colour space
    a browser assumes for an image without a profile. A profile that cannot be applied (one
    for another kind of image, or damaged) is ignored."""
    profile = image.info.get("icc_profile")
    if not profile:
        return image
    mode = "RGBA" if image.has_transparency_data else "RGB"
    source = image if image.mode in {"RGB", "RGBA", "L", "CMYK"} else image.convert(mode)
    try:
        converted = ImageCms.profileToProfile(
            source, ImageCms.ImageCmsProfile(io.BytesIO(profile)), SRGB, outputMode=mode
        )
    except (ImageCms.PyCMSError, OSError, ValueError):
        return image
    if converted is None:  # only when converting in place, which this does not ask for
        return image
    if mode == "RGBA":
        converted.putalpha(image.convert("RGBA").getchannel("A"))
    return converted


def store_logo(upload, *, name):
    """Save a checked logo under ``name`` now; a storage failure (disk full, read-only) is a
    ValidationError, and whatever part of the file was written is removed."""
    try:
        return default_storage.save(name, upload)
    except OSError as error:
        log.error("Could not store a logo at %s: %s", name, error)
        try:
            if default_storage.exists(name):
                default_storage.delete(name)
        except OSError:
            log.error("Could not remove the partial logo %s", name)
        raise ValidationError(
            "The logo could not be stored (%(reason)s), so nothing was saved. Your other changes "
            "are still in the form: save again, or save without a logo.",
            params={"reason": error.strerror or error.__class__.__name__},
            code="storage",
        ) from None


class LogoInput(forms.ClearableFileInput):
    """The logo's file input, labelled by its own ``<label>``: Django draws a file input in a
    fieldset whose legend names the group but not the input, which a screen reader then reads
    as an unnamed field."""

    use_fieldset = False


class LogoField(forms.FileField):
    """The logo upload, with this project's checks and messages instead of Django's generic
    "corrupted image" (which a bomb or a truncated file would otherwise get), stored at once.

    Cleaning returns the stored name for a new upload, the current logo when none is sent,
    and False when the editor ticks "Clear".
    """

    def __init__(self, *, upload_to, **kwargs):
        kwargs.pop("max_length", None)
        # Its own input, also in the admin (which would give it a file widget in a fieldset).
        kwargs["widget"] = LogoInput(attrs={"accept": "image/png,image/jpeg,image/webp"})
        super().__init__(**kwargs)
        self.upload_to = upload_to

    def clean(self, data, initial=None):
        value = super().clean(data, initial)
        if isinstance(value, UploadedFile):
            logo = clean_logo(value)
            return store_logo(logo, name=default_storage.generate_filename(self.upload_to(None, logo.name)))
        return value
