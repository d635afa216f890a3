"""The reproduction report's names: its games, the files it writes and the tables it reads.

Why a module of their own: the Snakefile needs these names while it is parsed (the report's
folder, inputs and outputs, :mod:`ime.workflow.thesis`), and :mod:`ime.thesis.report` and
:mod:`ime.thesis.results`, which define what they mean, import pandas (0.5 s) at the top. They
re-export them, so either place names the same tuples.
"""

from __future__ import annotations

GAMES = ("reversi", "doudizhu", "snake")
"""The thesis's games, in its chapters' order (2.1.3 Snake comes last: it is a side study)."""

FILES = ("reproduction.md", "numbers.csv", "conclusions.csv", "protocol.csv", "table6_1.csv",
         "table6_1_by_class.csv", "figures/table6_1.png", "figures/table6_1.pdf",
         "provenance.json")
"""What the report job writes, relative to its folder."""

REFERENCE = ("numbers.csv", "conclusions.csv", "protocol.yaml")
"""The thesis's data in ``<config>/thesis/`` that the report compares our results with. They are
inputs of the report job, so that editing one (a corrected number, a new protocol item) re-runs
the report, which its params alone would not show: the job reads them itself."""

TABLES = (
    "dataset_stats.csv", "imitation_accuracy.csv", "net_architectures.csv", "s1s2_imitator.csv",
    "s1_pairwise.csv", "s2_pairwise.csv", "similarity.csv", "similarity_pairs.csv",
    "tournament.csv", "clusters.csv", "difficulty_by_class.csv", "accuracy_clusters.csv",
    "move_counts.csv",
    # beyond the thesis (ime.thesis.beyond.METRIC_TABLES)
    "agreement.csv", "clones.csv", "tournament_cycles.csv", "cluster_purity.csv",
    "identification.csv",
)
"""The generic tables of a variant's results directory that the reproduction reads."""

OPTIONAL_TABLES = ("om_search.csv", "om_search_model_accuracy.csv")
"""Tables the report reads only when the run wrote them (:mod:`ime.thesis.beyond`): the
opponent-model search experiment's (issue 49), a named target that rule ``all`` does not build
(tens of minutes a game). The report job lists them as inputs only when ``om_search.csv``
exists (:meth:`ime.workflow.thesis.ThesisPlan.inputs`), so a reproduction never runs the
experiment, and one whose game has run it stays current with it."""
