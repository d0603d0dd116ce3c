"""The club's own director account on the evening server: made on its first start with a random
password shown once, reset by `manage.py director_password`. No shared password on a network:
the demo's fixed sign-in (tournaments/demo.py) is refused on the evening server."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.contrib.auth import get_user_model
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


@transaction.atomic
def ensure_director(*, username: str = DIRECTOR) -> Credentials | None:
    """The first start: with no account yet, make the director (a superuser) with a random
    password and return it, to be shown once. With any account already there, None."""
    user_model = get_user_model()
    if user_model.objects.exists():
        return None
    password = new_password()
    user_model.objects.create_superuser(username, email="", password=password)
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
