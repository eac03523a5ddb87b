"""``python3 -m semfp.dask INPUT... --out DIR [--scheduler ADDRESS] [options]``: see :func:`semfp.dask.main`."""

import sys

from . import main

sys.exit(main())
