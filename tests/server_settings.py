"""The project's settings (config/settings.py) with passwords hashed quickly, for the servers and
commands the tests start where passwords are not what is tested.

Django's default hasher (PBKDF2) takes a noticeable fraction of a second a password on purpose,
and such a server hashes on every first start (the director's account), every sign-in and every
password reset. MD5 comes first here, as in the tests' own process (tests/conftest.py); Django's
own hashers stay listed after it, so a password hashed by the real settings still checks.
Everything else is config.settings as it is; what production hashes with is checked there
(tests/test_settings.py)."""

from django.conf import global_settings

from config.settings import *  # noqa: F403 - every setting, unchanged

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    *global_settings.PASSWORD_HASHERS,
]
