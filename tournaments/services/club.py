"""The club's own director account on the evening server: made on its first start (or its first
start after a restore, whose accounts have no password) with a random password shown once,
reset by `manage.py director_password`. No shared password on a network:
the demo's fixed sign-in (tournaments/demo/club.py) is refused on the evening server."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import is_password_usable
from django.db import transaction

DIRECTOR = "director"
# Letters and digits a director reads off a terminal and types on a phone without doubt:
# no 0/O, 1/l/I.
ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
PASSWORD_LENGTH = 14


@dataclass(frozen=True)
class Credentials:
    username: str
    password: str


def new_password() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(PASSWORD_LENGTH))


def anyone_can_sign_in() -> bool:
    """Has any active account a password? Accounts a restore made (`restore_backup`) have none:
    after a restore into a new club folder nobody can sign in until one is given."""
    passwords = get_user_model().objects.filter(is_active=True).values_list("password", flat=True)
    return any(is_password_usable(password) for password in passwords.iterator())


@transaction.atomic
def ensure_director(*, username: str = DIRECTOR) -> Credentials | None:
    """The first start: while nobody can sign in — no account yet, or only accounts a restore
    made without a password — the director (a superuser; the restored account of that name, if
    any) gets a random password, returned to be shown once. Once anyone can sign in, None."""
    user_model = get_user_model()
    if anyone_can_sign_in():
        return None
    password = new_password()
    user = user_model.objects.select_for_update().filter(username=username).first()
    if user is None:
        user_model.objects.create_superuser(username, email="", password=password)
    else:
        user.set_password(password)
        user.is_active = user.is_staff = user.is_superuser = True
        user.save(update_fields=["password", "is_active", "is_staff", "is_superuser"])
    return Credentials(username=username, password=password)


@transaction.atomic
def reset_director_password(*, username: str = DIRECTOR) -> Credentials:
    """A new random password for the director (made as a superuser if missing)."""
    user_model = get_user_model()
    user = user_model.objects.select_for_update().filter(username=username).first()
    password = new_password()
    if user is None:
        user_model.objects.create_superuser(username, email="", password=password)
    else:
        user.set_password(password)
        user.is_active = True
        user.save(update_fields=["password", "is_active"])
    return Credentials(username=username, password=password)


def demo_password_accounts(*, known: tuple[str, str]) -> list[str]:
    """Usernames that still sign in with the demo's published password (`known`): on a
    network that is anyone's account."""
    username, password = known
    user = get_user_model().objects.filter(username=username).first()
    if user is not None and user.has_usable_password() and user.check_password(password):
        return [username]
    return []
