"""The director's password: a PBKDF2-SHA256 hash (``kibic hash-password`` writes one for the
table's configuration) and its check, used by the dashboard's admin routes."""

from __future__ import annotations

import hashlib
import hmac
import os

PBKDF2_ROUNDS = 200_000


def hash_password(password: str, *, salt: bytes | None = None, rounds: int = PBKDF2_ROUNDS) -> str:
    """PBKDF2-SHA256 hash in the form ``pbkdf2_sha256$rounds$salt_hex$hash_hex``."""
    salt = salt if salt is not None else os.urandom(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, rounds)
    return f"pbkdf2_sha256${rounds}${salt.hex()}${digest.hex()}"


def verify_password(stored_hash: str, password: str) -> bool:
    try:
        scheme, rounds, salt_hex, digest_hex = stored_hash.split("$")
        if scheme != "pbkdf2_sha256":
            return False
        digest = hashlib.pbkdf2_hmac(
            "sha256", password.encode("utf-8"), bytes.fromhex(salt_hex), int(rounds)
        )
    except ValueError:
        return False
    return hmac.compare_digest(digest.hex(), digest_hex)
