"""The reproduction's archive (ime.thesis.archive): what is copied, what is left out and why,
and a manifest whose hashes are the copied files'."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

from ime.thesis.archive import archive


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def test_archive_copies_keeps_game_names_and_lists_what_it_leaves_out(tmp_path: Path) -> None:
    rep, res = tmp_path / "results/thesis/x", tmp_path / "results/reversi/x"
    _write(rep / "reproduction.md", b"# report\n")
    _write(rep / "figures/table6_1.png", b"png")
    _write(rep / "figures/table6_1.pdf", b"pdf")
    _write(res / "imitation_accuracy.csv", b"a,b\n1,2\n")
    _write(res / "table4_4.csv", b"a,b\n1,2\n")
    _write(res / "tournament_games.csv", b"x" * 5000)
    out = tmp_path / "reproduction/x"
    _write(out / "stale.txt", b"from an earlier archive")
    rows = archive(rep, {"reversi": res}, out, command="snakemake -j8 archive_reproduction",
                   max_bytes=1000, copies={"reversi": {"imitation_accuracy.csv": "table4_4.csv"}})
    files = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert files == ["MANIFEST.md", "figures/table6_1.png", "reproduction.md",
                     "reversi/table4_4.csv"]
    left = {r["file"]: r["left_out"] for r in rows if "left_out" in r}
    assert "same bytes as table4_4.csv" in left["reversi/imitation_accuracy.csv"]
    assert "over 1,000" in left["reversi/tournament_games.csv"]
    assert "PNG twin" in left["figures/table6_1.pdf"]
    manifest = (out / "MANIFEST.md").read_text()
    sha = hashlib.sha256((out / "reversi/table4_4.csv").read_bytes()).hexdigest()[:16]
    assert f"| `reversi/table4_4.csv` | 8 | `{sha}` |" in manifest
    assert "snakemake -j8 archive_reproduction" in manifest
    assert "tournament_games.csv" in manifest.split("Left out:")[1]


def test_a_partial_archive_says_so_first(tmp_path: Path) -> None:
    rep, res = tmp_path / "results/thesis/x+reversi", tmp_path / "results/reversi/x"
    _write(rep / "reproduction.md", b"# report\n")
    _write(res / "table4_4.csv", b"a\n1\n")
    out = tmp_path / "reproduction/x+reversi"
    archive(rep, {"reversi": res}, out, left_out=("doudizhu", "snake"))
    manifest = (out / "MANIFEST.md").read_text()
    intro = manifest.split("| file |")[0]
    assert "**A partial reproduction:** it covers reversi only; doudizhu and snake are left out" \
        in intro
    whole = tmp_path / "reproduction/x"
    archive(rep, {"reversi": res}, whole)
    assert "A partial reproduction" not in (whole / "MANIFEST.md").read_text()


def test_rereport_rewrites_the_report_from_the_archived_tables(tmp_path: Path) -> None:
    """An archive of the thesis's own tables (kept under the games' names, table4_4.csv...):
    the report rewritten from them equals the one the run wrote (so nothing it reads was left
    out of the archive), a stale verdict is replaced, the manifest's rows hash the new files,
    and its note names the rewrite once however often it runs."""
    import pandas as pd

    from ime.thesis import report as RP
    from ime.thesis.archive import rereport
    from ime.thesis.own import thesis_results
    from ime.workflow.artifacts import game_names
    from ime.workflow.variants import make_plan

    root = Path(__file__).resolve().parents[2]
    cfgs = {g: make_plan([f"game={g}", "scale=thesis"], root / "config", base=root).main.cfg
            for g in ("reversi", "doudizhu")}
    # as the report job reads a run: the matches per target from its config
    # Reversi's and Doudizhu's tables (Snake's are Fig 2.4's ranks only); a run has no ladder
    own = {g: replace(r, matches_per_target=cfgs[g]["dataset"].get("matches")
                      or cfgs[g]["matches"]["per_target"],
                      tables={k: v for k, v in r.tables.items() if k != "ladder.csv"})
           for g, r in thesis_results().items() if g in cfgs}
    rdirs = {g: f"results/{g}/thesis" for g in own}
    rep = tmp_path / "results/thesis/thesis"
    RP.write(rep, scale="thesis", results=own, cfgs=cfgs, rdirs=rdirs,
             command="snakemake -j8 results/thesis/thesis/reproduction.md --config "
                     "overrides='[scale=thesis]'",
             prov={"git": {"commit": "abc"}, "scale": "thesis", "results": rdirs, "stages": []})
    for g, r in own.items():  # a results folder: the generic tables and the games' copies
        (tmp_path / rdirs[g]).mkdir(parents=True, exist_ok=True)
        for name, df in r.tables.items():
            for n in {name, game_names(g).get(name, name)}:
                df.to_csv(tmp_path / rdirs[g] / n, index=False)
    out = tmp_path / "reproduction/thesis"
    archive(rep, {g: tmp_path / d for g, d in rdirs.items()}, out,
            copies={g: game_names(g) for g in own})
    assert (out / "reversi/table4_4.csv").is_file()
    assert not (out / "reversi/imitation_accuracy.csv").exists()
    written = (out / "conclusions.csv").read_bytes()
    stale = pd.read_csv(out / "conclusions.csv").assign(verdict="stale")
    stale.to_csv(out / "conclusions.csv", index=False)
    for _ in range(2):
        counts = rereport(out, root=root)
    assert (out / "conclusions.csv").read_bytes() == written
    assert (out / "numbers.csv").read_bytes() == (rep / "numbers.csv").read_bytes()
    assert counts["conclusions"] == len(stale) and counts["holds"] > 0
    prov = (out / "provenance.json").read_text()
    assert "rewritten by ime.thesis.archive.rereport" in prov
    manifest = (out / "MANIFEST.md").read_text()
    for f in ("conclusions.csv", "reproduction.md", "provenance.json"):
        sha = hashlib.sha256((out / f).read_bytes()).hexdigest()[:16]
        assert f"| `{f}` | {(out / f).stat().st_size:,} | `{sha}` |" in manifest
    assert manifest.count("were rewritten at") == 1
    assert manifest.index("were rewritten at") < manifest.index("| file |")


def test_the_rebuild_commands_overrides_are_read_as_the_snakefile_reads_them() -> None:
    """A quoted list value stays one override: cut at its first ']', the Doudizhu lookahead
    archive's command once lost ``scale=thesis``'s company and re-reported at quick scale."""
    from ime.thesis.archive import _overrides

    command = ("snakemake -j8 results/thesis/x/reproduction.md --config overrides='[game=doudizhu,"
               "scale=thesis,\"net.features=[hand_turns,hand_split]\",\"train.nets=[ddz_conv1]\","
               "run.name=x]' thesis_games='[doudizhu]'")
    assert _overrides(command) == ["game=doudizhu", "scale=thesis",
                                   "net.features=[hand_turns,hand_split]",
                                   "train.nets=[ddz_conv1]", "run.name=x"]
    assert _overrides("snakemake -j8 all --config overrides='[scale=thesis]'") == ["scale=thesis"]
    assert _overrides("snakemake -j8 all") == []
