"""A second factor for staff: TOTP, passkeys (WebAuthn) and recovery codes.

django-otp keeps the devices and marks a session verified; django-otp-webauthn runs the passkey
ceremonies. settings.STAFF_SECOND_FACTOR says whether every staff member needs one ("required",
the default with DEBUG off) or only those who enrolled ("optional", the default with DEBUG on).
"""
