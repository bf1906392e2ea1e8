"""`python -m techai_shared.preflight NAME ...`: refuse to start a deployment without its secrets.

docker compose runs this first (the `preflight` service; the servers and the migration wait for it
to complete). Checking here rather than with `${VAR:?}` in docker-compose.yml keeps
`docker compose config` usable on a fresh clone, while `docker compose up` still stops at once,
naming every missing value, before any server initialises a volume with an empty password.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence

MIN_JWT_SECRET_CHARS = 32


def problems(names: Sequence[str], env: Mapping[str, str]) -> list[str]:
    """What is wrong with the required values `names` in `env` (empty: nothing)."""
    found = []
    for name in names:
        value = env.get(name, "").strip()
        if not value:
            found.append(f"{name} is not set")
        elif name == "JWT_SECRET" and len(value) < MIN_JWT_SECRET_CHARS:
            found.append(f"JWT_SECRET has {len(value)} characters, at least "
                         f"{MIN_JWT_SECRET_CHARS} are needed")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    names = list(sys.argv[1:] if argv is None else argv)
    if not names:
        print("usage: python -m techai_shared.preflight NAME [NAME ...]", file=sys.stderr)
        return 2
    found = problems(names, os.environ)
    if found:
        print("preflight: the deployment is not configured: " + "; ".join(found)
              + " (copy .env.example to .env and fill in the secrets)", file=sys.stderr)
        return 1
    print(f"preflight: {len(names)} required values set")
    return 0


if __name__ == "__main__":
    sys.exit(main())
