"""``ime.workflow.index.alternatives``: the wildcard constraints as prefix trees (issue 31).

The tree must match exactly the strings the flat longest-first list ``a|b|...`` matched and
split a path into the same wildcard values, since Snakemake picks a rule and its wildcards by
these regexes; these tests compare the two on seeded random value sets built to share
prefixes, hold regex metacharacters and be prefixes of one another.
"""

from __future__ import annotations

import random
import re

import pytest

from ime.workflow.index import alternatives


def flat(values: list[str]) -> str:
    """The former constraint: every value escaped, longest first."""
    vals = sorted(set(values), key=lambda s: (-len(s), s))
    return "|".join(re.escape(x) for x in vals)


def random_values(rng: random.Random, n: int) -> list[str]:
    """``n`` values over a small alphabet (so that they share prefixes and are prefixes of each
    other), with separators and metacharacters."""
    alphabet = "ab_/.-0]^[\\|(x"
    stems = ["imit_", "b2_", "shard00", "", "a"]
    return [rng.choice(stems) + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 4)))
            for _ in range(n)]


def test_known_shapes() -> None:
    assert alternatives([]) == ""
    assert alternatives(["quick"]) == "quick"
    assert alternatives(["rev1/shard000", "rev1/shard001", "rev2/shard000"]) == \
        "rev(?:1/shard00[01]|2/shard000)"
    assert alternatives(["ab", "abc"]) == "abc?"
    assert re.fullmatch(alternatives(["a.b", "a-b"]), "a.b")
    assert not re.fullmatch(alternatives(["a.b", "a-b"]), "axb")


@pytest.mark.parametrize("seed", range(40))
def test_same_language_and_same_split(seed: int) -> None:
    rng = random.Random(seed)
    first, second = random_values(rng, rng.randint(1, 12)), random_values(rng, rng.randint(1, 6))
    old = re.compile(f"(?P<x>{flat(first)})/(?P<y>{flat(second)})$")
    new = re.compile(f"(?P<x>{alternatives(first)})/(?P<y>{alternatives(second)})$")
    probes = {f"{a}/{b}" for a in first for b in second}
    probes |= {f"{a}{c}/{b}" for a in first for b in second for c in "a_/"}
    probes |= {rng.choice(first) + "".join(rng.choice("ab_/.0") for _ in range(3)) + "/"
               + rng.choice(second) for _ in range(50)}
    for text in sorted(probes):
        m_old, m_new = old.match(text), new.match(text)
        assert (m_old is None) == (m_new is None), text
        if m_old is not None and m_new is not None:
            assert m_old.groupdict() == m_new.groupdict(), text


def test_inside_a_negative_lookahead() -> None:
    """setup's ``anything``: ``(?!(alts)/).+`` refuses the same paths."""
    subdirs = ["mlp2", "mlp2-sweep", "conv/x", "m.p"]
    old = re.compile(f"(?!({flat(subdirs)})/).+$")
    new = re.compile(f"(?!({alternatives(subdirs)})/).+$")
    for text in ["mlp2/t.csv", "mlp2-sweep/t.csv", "mlp2-s/t.csv", "conv/x/y", "conv/y",
                 "mxp/a", "m.p/a", "t.csv"]:
        assert bool(old.match(text)) == bool(new.match(text)), text


def test_a_path_splits_as_before() -> None:
    """Two wildcards whose values contain '/': the longer first value wins, as before."""
    first, second = ["a", "a/b", "rev1/shard000"], ["b/c", "c", "shard000/x", "x"]
    for text, want in [("a/b/c", ("a/b", "c")), ("a/c", ("a", "c")),
                       ("rev1/shard000/x", ("rev1/shard000", "x"))]:
        for alt in (flat, alternatives):
            m = re.match(f"(?P<x>{alt(first)})/(?P<y>{alt(second)})$", text)
            assert m is not None and (m["x"], m["y"]) == want, (alt, text)


def flat_unknown(outputs: list[str]) -> str:
    """The former catch-all regex: every other output's regex in a flat list."""
    wildcard = re.compile(r"\{\s*(\w+)\s*(?:,\s*((?:[^{}]+|\{\d+(?:,\d+)?\})*))?\s*\}")
    alts = []
    for pattern in dict.fromkeys(outputs):
        if not pattern.startswith(("results/", "{")):
            continue
        parts, pos = [], 0
        for m in wildcard.finditer(pattern):
            parts.append(re.escape(pattern[pos:m.start()]))
            parts.append(f"(?:{m.group(2) or '.+'})")
            pos = m.end()
        parts.append(re.escape(pattern[pos:]))
        alts.append("".join(parts))
    return "(?!(?:" + "|".join(alts) + ")$)results/.+"


def test_the_catch_all_refuses_the_same_paths() -> None:
    """``Workflow.unknown_constraint`` as a tree of the outputs lets the same paths through."""
    from ime.workflow.setup import Workflow

    rdir = "{rdir," + alternatives(["results/reversi", "results/snake", "results/reversi/v1"]) + "}"
    outputs = [f"{rdir}/table4_4.csv", f"{rdir}/table4_5.csv", f"{rdir}/figures/fig4_2.png",
               f"{rdir}/{{artifact,{alternatives(['table5_4.csv', 'table5_11.csv'])}}}",
               f"{rdir}/{{result}}", "results/{game,reversi|snake}/index.md",
               "data/{game}/x.csv", "results/thesis/reproduction.md", f"{rdir}/table4_4.csv"]
    old = re.compile(flat_unknown(outputs) + "$")
    new = re.compile(Workflow.unknown_constraint(outputs) + "$")
    assert len(new.pattern) < len(old.pattern)
    probes = ["results/reversi/table4_4.csv", "results/reversi/table4_6.csv",
              "results/snake/figures/fig4_2.png", "results/snake/figures/fig4_3.png",
              "results/reversi/v1/table5_11.csv", "results/reversi/v2/table5_11.csv",
              "results/reversi/anything", "results/big2/table4_4.csv", "results/reversi/index.md",
              "results/big2/index.md", "results/thesis/reproduction.md", "results/thesis/x.md",
              "results/reversi/v1/sub/table4_4.csv", "data/reversi/x.csv", "results/"]
    differ = [p for p in probes if bool(old.match(p)) != bool(new.match(p))]
    assert not differ
    assert {bool(old.match(p)) for p in probes} == {True, False}  # both kinds probed
