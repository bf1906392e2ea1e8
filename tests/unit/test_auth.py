"""JWT verification rules: pinned algorithms, exp and sub required."""

from __future__ import annotations

from datetime import timedelta

import pytest
from jose import jwt

from techai_shared.auth import mint_token, verify_token
from techai_shared.clock import utcnow
from techai_shared.errors import Unauthenticated
from techai_shared.settings import CommonSettings

pytestmark = pytest.mark.unit


def test_minted_token_round_trips():
    settings = CommonSettings()
    principal = verify_token(mint_token("1001", settings, role="ADMIN"), settings)
    assert principal.user_id == "1001" and principal.is_admin


def test_algorithm_outside_the_pinned_list_is_refused():
    settings = CommonSettings(jwt_algorithms="HS256")
    token = jwt.encode({"sub": "1", "exp": utcnow() + timedelta(minutes=1)}, settings.jwt_secret,
                       algorithm="HS512")
    with pytest.raises(Unauthenticated):
        verify_token(token, settings)


def test_token_without_exp_is_refused():
    settings = CommonSettings()
    with pytest.raises(Unauthenticated):
        verify_token(jwt.encode({"sub": "1"}, settings.jwt_secret, algorithm="HS256"), settings)


def test_audience_is_checked_when_configured():
    settings = CommonSettings(jwt_audience="portal")
    other = CommonSettings(jwt_audience="elsewhere")
    with pytest.raises(Unauthenticated):
        verify_token(mint_token("1", other), settings)
    assert verify_token(mint_token("1", settings), settings).user_id == "1"


def test_production_refuses_the_development_secret_and_alg_none():
    with pytest.raises(ValueError):
        CommonSettings(environment="production")
    with pytest.raises(ValueError):
        CommonSettings(jwt_algorithms="none")
