"""``python -m safeplot``: the same as the ``safeplot`` command."""

import sys

from .cli import main

sys.exit(main())
