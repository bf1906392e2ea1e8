"""`python -m command_api.ops`: the ops shell's commands; see command_api.entrypoints.ops_cli."""

from __future__ import annotations

import sys

from command_api.entrypoints.ops_cli import main

if __name__ == "__main__":
    sys.exit(main())
