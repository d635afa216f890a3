"""The reproduction's archive (ime.thesis.archive): what is copied, what is left out and why,
and a manifest whose hashes are the copied files'."""

from __future__ import annotations

import hashlib
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
