"""Every kind of bad bearer token is 401 (4011) in the envelope on both APIs, never a 500, and a
refused request changes nothing."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jose import jwt
from sqlalchemy import func, select

from techai_shared.auth import mint_token
from techai_shared.db.schema import bookmarks, conversation_sessions, outbox_events
from techai_shared.settings import CommonSettings

pytestmark = pytest.mark.integration

CASES = ["missing", "not_bearer", "garbage", "alg_none", "alg_none_upper", "hs256_with_public_key",
         "rs256_header", "wrong_secret", "tampered_payload", "expired", "nbf_future", "missing_sub",
         "empty_sub", "unknown_kid", "huge_100kb", "exp_infinite", "sub_too_long", "crit_header",
         "role_not_string", "header_not_object", "payload_not_object", "two_parts"]


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _hs256(header: dict[str, Any], claims: Any, secret: bytes) -> str:
    signing_input = f"{_b64(json.dumps(header).encode())}.{_b64(json.dumps(claims).encode())}"
    signature = hmac.new(secret, signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{_b64(signature)}"


def _rsa_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def bad_token(case: str, settings: CommonSettings) -> str | None:
    """The Authorization header value for one attack (None: no header)."""
    now = int(time.time())
    good = {"sub": "1001", "role": "ADMIN", "exp": now + 600}
    secret = settings.jwt_secret.encode()
    if case == "missing":
        return None
    if case == "not_bearer":
        return f"Basic {base64.b64encode(b'1001:pw').decode()}"
    if case == "garbage":
        return "Bearer not-a-jwt"
    if case in ("alg_none", "alg_none_upper"):
        alg = "none" if case == "alg_none" else "NONE"
        header = _b64(json.dumps({"alg": alg, "typ": "JWT"}).encode())
        return f"Bearer {header}.{_b64(json.dumps(good).encode())}."
    if case == "hs256_with_public_key":  # RS256/HS256 key confusion: the public key as HMAC secret
        public = _rsa_key().public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        return f"Bearer {_hs256({'alg': 'HS256', 'typ': 'JWT'}, good, public)}"
    if case == "rs256_header":
        pem = _rsa_key().private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption())
        return f"Bearer {jwt.encode(good, pem.decode(), algorithm='RS256')}"
    if case == "wrong_secret":
        return f"Bearer {jwt.encode(good, 'another-secret-another-secret-123', algorithm='HS256')}"
    if case == "tampered_payload":  # a real USER token whose payload is swapped for an ADMIN one
        header, _, signature = mint_token("1001", settings).split(".")
        return f"Bearer {header}.{_b64(json.dumps(good).encode())}.{signature}"
    if case == "expired":
        return f"Bearer {jwt.encode({**good, 'exp': now - 3600}, settings.jwt_secret, algorithm='HS256')}"
    if case == "nbf_future":
        return f"Bearer {jwt.encode({**good, 'nbf': now + 3600}, settings.jwt_secret, algorithm='HS256')}"
    if case == "missing_sub":
        return f"Bearer {jwt.encode({'exp': now + 600}, settings.jwt_secret, algorithm='HS256')}"
    if case == "empty_sub":
        return f"Bearer {jwt.encode({**good, 'sub': '  '}, settings.jwt_secret, algorithm='HS256')}"
    if case == "unknown_kid":
        return f"Bearer {jwt.encode(good, settings.jwt_secret, algorithm='HS256', headers={'kid': 'k9'})}"
    if case == "huge_100kb":
        token = jwt.encode({**good, "pad": "x" * 100_000}, settings.jwt_secret, algorithm="HS256")
        assert len(token) > 100 * 1024
        return f"Bearer {token}"
    if case == "exp_infinite":  # 1e400 is JSON's way to say infinity; int() of it overflows
        return "Bearer " + _hs256({"alg": "HS256"}, {"sub": "1001", "exp": 1e400}, secret)
    if case == "sub_too_long":  # longer than the user_id columns
        return f"Bearer {jwt.encode({**good, 'sub': '9' * 65}, settings.jwt_secret, algorithm='HS256')}"
    if case == "crit_header":
        return "Bearer " + _hs256({"alg": "HS256", "crit": ["x-unknown"], "x-unknown": 1}, good, secret)
    if case == "role_not_string":
        return "Bearer " + _hs256({"alg": "HS256"}, {**good, "role": {"ADMIN": True}}, secret)
    if case == "header_not_object":
        return f"Bearer {_b64(b'[1]')}.{_b64(json.dumps(good).encode())}.x"
    if case == "payload_not_object":
        return "Bearer " + _hs256({"alg": "HS256"}, ["1001"], secret)
    if case == "two_parts":
        return "Bearer " + ".".join(mint_token("1001", settings).split(".")[:2])
    raise AssertionError(case)


async def _counts(engine) -> tuple[int, ...]:
    async with engine.connect() as conn:
        return tuple([(await conn.execute(select(func.count()).select_from(t))).scalar_one()
                      for t in (conversation_sessions, bookmarks, outbox_events)])


async def _assert_401(client: httpx.AsyncClient, calls: list[tuple[str, str, Any]], header: str | None,
                      case: str) -> None:
    headers = {"Authorization": header} if header is not None else {}
    for method, path, body in calls:
        response = await client.request(method, path, json=body, headers=headers)
        assert response.status_code == 401, (case, method, path, response.text[:300])
        envelope = response.json()
        assert envelope["code"] == "4011" and envelope["data"] is None, (case, envelope)


def test_the_well_formed_tokens_do_verify(settings):
    """The bad tokens are bad for the reason named, not because the recipe is broken: the same
    recipe with the real secret and without the attack passes."""
    from techai_shared.auth import verify_token
    now = int(time.time())
    secret = settings.jwt_secret.encode()
    assert verify_token(_hs256({"alg": "HS256"}, {"sub": "1001", "exp": now + 60}, secret),
                        settings).user_id == "1001"
    ok_kid = settings.model_copy(update={"jwt_key_ids": ["k9"]})
    kid = jwt.encode({"sub": "1", "exp": now + 60}, settings.jwt_secret, algorithm="HS256",
                     headers={"kid": "k9"})
    assert verify_token(kid, ok_kid).user_id == "1"
    assert verify_token(jwt.encode({"sub": "9" * 64, "exp": now + 60}, settings.jwt_secret,
                                   algorithm="HS256"), settings).user_id == "9" * 64


@pytest.mark.parametrize("case", CASES)
async def test_bad_tokens_are_401_on_chatbot_api(chatbot_api, settings, engine, case):
    before = await _counts(engine)
    calls = [("POST", "/api/v1/chatbot", {"message": "안녕"}),
             ("POST", "/api/v1/chatbot/stream", {"message": "안녕"}),
             ("GET", "/api/v1/chatbot/sessions", None),
             ("GET", "/api/v1/chatbot/usage", None),
             ("DELETE", "/api/v1/chatbot/sessions/s-1", None)]
    await _assert_401(chatbot_api, calls, bad_token(case, settings), case)
    assert await _counts(engine) == before


@pytest.mark.parametrize("case", CASES)
async def test_bad_tokens_are_401_on_command_api(command_api, settings, engine, case):
    before = await _counts(engine)
    calls = [("POST", "/api/v1/bookmarks", {"itemType": "CONTEST", "itemId": "c-0001"}),
             ("GET", "/api/v1/bookmarks", None),
             ("POST", "/api/v1/admin/contests", {"title": "x"}),
             ("GET", "/api/v1/admin/jobs", None),
             ("POST", "/api/v1/admin/catalog/import", None)]
    await _assert_401(command_api, calls, bad_token(case, settings), case)
    assert await _counts(engine) == before
