"""Puts ``tests/games`` on ``sys.path`` for ``shedding_helpers``: the helpers these tests
share with Doudizhu's (both games are :mod:`ime.games.shedding`'s)."""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))
