"""Credentials and codes never become memory. The Writer's model marks them (attribute "secret"); this is the second
line, in code and in no language: card- and account-number-like digit runs, and key-like tokens."""
from __future__ import annotations

import re

# 8 or more digits, spaces or dashes allowed between groups: a card, an account, a phone-banking code
_DIGIT_RUN = re.compile(r"(?<![\w-])\d(?:[ -]?\d){7,}(?![\w-])")
# an IBAN: a country's two letters, two check digits, then 10 to 30 letters and digits (spaces between groups)
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){10,30}\b")
# one unbroken token of 16 or more characters that mixes letters and digits: an API key, a token, a password
_TOKEN = re.compile(r"(?<![\w/.@])[A-Za-z0-9_\-+/=]{16,}(?![\w/.@])")
_ISO_DATE = re.compile(r"^\d{4}-?\d{2}-?\d{2}$")


def secret_like(text: str) -> str | None:
    """What in `text` looks like a credential, as a short reason; None when nothing does."""
    for match in _DIGIT_RUN.finditer(text):
        if not _ISO_DATE.match(match.group(0)):  # 20260301 is a day, not an account
            return "a card- or account-number-like run of digits"
    if _IBAN.search(text):
        return "an account number (IBAN)"
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        if re.search(r"\d", token) and re.search(r"[A-Za-z]", token) and not token.startswith("http"):
            return "a key- or token-like string"
    return None
