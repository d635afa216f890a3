"""Imitator families that are not policy nets (issue 46).

A policy net maps one position to a move and, on positions it never saw, agrees with a
deterministic search bot only about half of the time. A *search imitator* instead runs a generic
search of the game with an evaluation whose weights (and the search's own settings) are fitted
only from the target's logged decisions, so that the search picks the target's move.

Modules:

* :mod:`ime.imitators.reversi_features`: generic, documented Reversi evaluation features over
  the engine's bitboards (numba);
* :mod:`ime.imitators.reversi_search`: a deterministic iterative-deepening alpha-beta over a
  linear evaluation of those features (node budget, tie rule, exact endgame), also giving each
  root move's principal-variation leaf features for the fit;
* :mod:`ime.imitators.data`: decisions (bitboards + move) from the pipeline's Parquet datasets,
  the pipeline's match split, and the "unseen positions" validation set;
* :mod:`ime.imitators.search_fit`: the MMTO-style fitter, the choice of the search settings on
  a held-out fold, and save/load of a fitted imitator.
* :mod:`ime.imitators.mmto`: the game-independent half of the fit (root moves as CSR rows, the
  fixed-leaf problem of a pass, its losses and optimiser), shared by every game's fitter;
* Connect Four's family: :mod:`ime.imitators.connect4_features` (generic features: open
  windows, column classes, threats and their row parity), :mod:`ime.imitators.connect4_search`
  (alpha-beta giving every column's value and PV-leaf features),
  :mod:`ime.imitators.connect4_fit` (the fit and the choice of depth, phases and tie rule) and
  :mod:`ime.imitators.connect4_family` (the pipeline's module and family),
  :mod:`ime.imitators.connect4_bench` (``ime bench connect4 --only search_imitator``);
* the pipeline's families: :mod:`ime.imitators.family` (the plug-in protocol),
  :mod:`ime.imitators.reversi_family`.

Nothing here reads a bot's config or code: an imitator is a function of the decisions it is
given (tests/imitators/test_no_zoo.py checks that with the zoo made unreadable). The pipeline
selects a family with ``imitator=search`` (docs/imitators.md).
"""
