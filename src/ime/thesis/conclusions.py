"""The thesis's stated conclusions as named checks: the names the report, the comparison and
the tests import (``CHECKS``, ``run_check``, ``Verdict``, the statuses, ``Missing``,
``accuracy_by_bot``, ``game_accuracy``, ``CLASS_ORDER``: :data:`ime.thesis.checks.__all__`).

The checks themselves live in :mod:`ime.thesis.checks`, one module per chapter (the catalogue
outgrew one file); this module keeps the place every caller imports them from, re-exporting the
package's names rather than listing them again.
"""

from ime.thesis.checks import *  # noqa: F403 - the package's public names, as listed there
from ime.thesis.checks import __all__  # noqa: F401 - the same list, for `import *` here
