"""``python -m helpers.corpus check``: the corpus self-check (see ``helpers.corpus.check``)."""

import sys

from helpers.corpus.check import main

sys.exit(main())
