"""Logo uploads: only real PNG, JPEG or WebP images within limits, re-encoded by Pillow."""

import io

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, UnidentifiedImageError

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
            out = io.BytesIO()
            if image_format == "JPEG":
                image.convert("RGB").save(out, format="JPEG", quality=90, optimize=True)
            else:
                if image.mode not in {"RGB", "RGBA", "L", "LA", "P"}:
                    image = image.convert("RGBA")
                image.save(out, format=image_format)
    except ValidationError:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError, ValueError):
        raise ValidationError(
            "This file is not a readable PNG, JPEG or WebP image.", code="invalid_image"
        ) from None
    extension, content_type = FORMATS[image_format]
    return SimpleUploadedFile(f"logo.{extension}", out.getvalue(), content_type=content_type)
