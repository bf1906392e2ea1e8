"""JWT verification (python-jose) for the APIs and minting of development tokens.

Algorithms are pinned to the configured list, `exp` and `sub` are required, and audience and issuer
are checked when configured (python-jose >= 3.4 fixes CVE-2024-33663/33664). Before any decoding a
token is refused when it is over MAX_TOKEN_CHARS, names a key id (`kid`) not in JWT_KEY_IDS, or marks
header parameters critical (`crit`, none understood here); after it, a subject must fit the stores'
user id (64 characters) and a role must be a string. Whatever a token holds, the answer is 401.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from jose import JWTError, jwt

from techai_shared.clock import utcnow
from techai_shared.errors import Unauthenticated
from techai_shared.settings import CommonSettings

MAX_TOKEN_CHARS = 8192
MAX_SUBJECT_CHARS = 64  # user_id columns are VARCHAR(64)


@dataclass(frozen=True)
class Principal:
    """The authenticated caller: the JWT's subject and role."""

    user_id: str
    role: str = "USER"

    @property
    def is_admin(self) -> bool:
        return self.role == "ADMIN"


def verify_token(token: str, settings: CommonSettings) -> Principal:
    """Decode and verify a bearer token or raise Unauthenticated."""
    if len(token) > MAX_TOKEN_CHARS:
        raise Unauthenticated("token too large")
    try:
        header = jwt.get_unverified_header(token)
    except JWTError as exc:
        raise Unauthenticated("malformed token") from exc
    if header.get("alg") not in settings.jwt_algorithms:
        raise Unauthenticated("token algorithm not allowed")
    if "kid" in header and header["kid"] not in settings.jwt_key_ids:
        raise Unauthenticated("unknown token key id")
    if "crit" in header:
        raise Unauthenticated("critical token header parameters are not supported")
    options = {
        "require_exp": True,
        "require_sub": True,
        "verify_aud": settings.jwt_audience is not None,
        "verify_iss": settings.jwt_issuer is not None,
        "leeway": settings.jwt_leeway_seconds,
    }
    try:
        claims: dict[str, Any] = jwt.decode(
            token,
            settings.jwt_secret,
            algorithms=settings.jwt_algorithms,
            audience=settings.jwt_audience,
            issuer=settings.jwt_issuer,
            options=options,
        )
    except JWTError as exc:
        raise Unauthenticated(f"invalid token: {exc}") from exc
    except (ValueError, TypeError, OverflowError) as exc:  # e.g. "exp": 1e400 (json's Infinity)
        raise Unauthenticated("invalid token claims") from exc
    subject = claims.get("sub")
    if not isinstance(subject, str | int) or not str(subject).strip():
        raise Unauthenticated("token has no subject")
    if len(str(subject).strip()) > MAX_SUBJECT_CHARS:
        raise Unauthenticated(f"token subject over {MAX_SUBJECT_CHARS} characters")
    role_claim = claims.get("role")
    if role_claim is not None and not isinstance(role_claim, str):
        raise Unauthenticated("token role must be a string")
    role = (role_claim or "USER").upper()
    return Principal(user_id=str(subject).strip(), role=role)


def mint_token(
    user_id: str, settings: CommonSettings, role: str = "USER", ttl: timedelta = timedelta(hours=12)
) -> str:
    """Sign a token for development and tests with the configured secret and first algorithm."""
    now = utcnow()
    claims: dict[str, Any] = {"sub": str(user_id), "role": role, "iat": now, "exp": now + ttl}
    if settings.jwt_audience:
        claims["aud"] = settings.jwt_audience
    if settings.jwt_issuer:
        claims["iss"] = settings.jwt_issuer
    return jwt.encode(claims, settings.jwt_secret, algorithm=settings.jwt_algorithms[0])
