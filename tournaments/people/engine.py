"""A claim code as people type it: 8 characters of an alphabet without look-alikes, printed
in two groups of four ("7KQM-2XHD"). Plain Python (no Django).

The alphabet is Crockford's base 32 (digits and capitals without I, L, O and U): 40 random bits
a code. Typed, a code is read kindly: lower case, spaces and dashes are fine, and the letters
people confuse with digits (O for 0, I and L for 1) are read as those digits; full-width
characters (a Japanese keyboard) are read as their ASCII.
"""

from __future__ import annotations

import secrets
import unicodedata

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 8
GROUP = 4

#: What a typed character that is not in the alphabet is read as.
LOOK_ALIKES = {"O": "0", "I": "1", "L": "1"}
#: Characters a person may type between the groups.
SEPARATORS = frozenset(" -_.\u2010\u2011\u2012\u2013\u2014\u3000\u30fc")


def new_code() -> str:
    """A fresh random code (the 8 characters, ungrouped)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalise(typed: str) -> str | None:
    """The code a person typed, as stored (8 characters of the alphabet), or None when it
    cannot be one (wrong length, a character outside the alphabet)."""
    kept = []
    for char in unicodedata.normalize("NFKC", typed).strip().upper():
        if char in SEPARATORS:
            continue
        char = LOOK_ALIKES.get(char, char)
        if char not in ALPHABET:
            return None
        kept.append(char)
    return "".join(kept) if len(kept) == LENGTH else None


def grouped(code: str) -> str:
    """The code as printed: groups of four joined by a dash."""
    return "-".join(code[i : i + GROUP] for i in range(0, len(code), GROUP))
