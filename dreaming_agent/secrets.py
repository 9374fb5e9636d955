"""Credentials never become memory: what in a text looks like a password, PIN, code, key, card or account number.

Two signals. The shapes of numbers and keys, in any language: a card number (its check digit holds), an IBAN (its
check digits hold), a long token mixing letters and digits. And a word naming a credential (`lang` CREDENTIALS) with
a code in the same sentence: three digits or more, or a word mixing letters and digits. The words are read across
every known language, whatever the text's: "PIN" and "password" are borrowed everywhere, and a false alarm costs
only the memory of one message, which the reply says.
"""
from __future__ import annotations

import re

from . import lang
from .text import split_sentences

_DIGIT_RUN = re.compile(r"(?<![\w-])\d(?:[ -]?\d){12,18}(?![\w-])")  # 13 to 19 digits, grouped or not: a card
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b")
_TOKEN = re.compile(r"(?<![\w/.@:])[A-Za-z0-9_\-+=]{16,}(?![\w/.@])")  # not inside an address, a path or an email
_CREDENTIAL = re.compile(r"(?<!\w)(?:" + lang.pattern("CREDENTIALS") + r")(?!\w)", re.IGNORECASE)
_CODE = re.compile(r"\d{3,}|\b(?=\w*[^\W\d_])(?=\w*\d)\w+\b")  # three digits or more, or letters with digits


def withheld(text: str) -> str | None:
    """Why `text` must not become memory (a short English reason for the trace), or None when nothing in it does."""
    for match in _DIGIT_RUN.finditer(text):
        if _luhn(re.sub(r"\D", "", match.group(0))):
            return "a card number"
    for match in _IBAN.finditer(text):
        if _iban(match.group(0)):
            return "an account number (IBAN)"
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        if re.search(r"\d", token) and re.search(r"[A-Za-z]", token):
            return "a key or token"
    for sentence in split_sentences(text) or [text]:
        credential = _CREDENTIAL.search(sentence)
        if credential and _CODE.search(sentence):
            return f"a credential ({credential.group(0).lower()}) with a code"
    return None


def names_credential(text: str) -> str | None:
    """The credential a text names ("The user's password is swordfish"), whatever follows it; None when none."""
    found = _CREDENTIAL.search(text)
    return found.group(0).lower() if found else None


def _luhn(digits: str) -> bool:
    """A card number's check digit holds (the Luhn sum): a run of digits that is a card, not a phone or an order."""
    total = 0
    for i, d in enumerate(int(c) for c in reversed(digits)):
        total += d if i % 2 == 0 else (d * 2 - 9 if d > 4 else d * 2)
    return total % 10 == 0


def _iban(candidate: str) -> bool:
    """An IBAN's check digits hold (ISO 13616: the rearranged number is 1 modulo 97)."""
    compact = candidate.replace(" ", "")
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1
