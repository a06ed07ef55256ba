"""`python -m arena.cli`: the `arena` command."""

import sys

from arena.cli import main

sys.exit(main())
