"""`make token USER=1001 [ROLE=ADMIN]` (`python -m devstack.token`): print a development JWT.

The token is signed with the secret the services use (JWT_SECRET if set, else the development
default that `make run` leaves in place) and is the last line printed, so a script can take it with
`tail -n1`; the explanation goes to stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import timedelta

from techai_shared.auth import mint_token
from techai_shared.settings import CommonSettings

ROLES = ("USER", "ADMIN")


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m devstack.token", description=__doc__.splitlines()[0])
    parser.add_argument("--user", required=True, help="the user id, the token's subject")
    parser.add_argument("--role", default="USER", type=str.upper, choices=ROLES)
    parser.add_argument("--hours", default=12.0, type=float, help="lifetime in hours (default 12)")
    args = parser.parse_args(argv)
    if not args.user.strip():
        parser.error("--user must not be empty")
    if args.hours <= 0:
        parser.error("--hours must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = _parse(argv)
    settings = CommonSettings()
    token = mint_token(args.user.strip(), settings, role=args.role, ttl=timedelta(hours=args.hours))
    print(f"development JWT for user {args.user.strip()} (role {args.role}), valid {args.hours:g}h;"
          " send it as 'Authorization: Bearer <token>':", file=sys.stderr, flush=True)
    print(token, flush=True)


if __name__ == "__main__":
    main()
