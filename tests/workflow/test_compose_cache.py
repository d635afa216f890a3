"""The composition cache (issue 31): ``ime.workflow.compose`` reuses a stored composition only
when the config files, the overrides and the code are the same, and never stores a failure.

Every test composes the repository's real config (copied where a test edits it) with Hydra; a
spy around ``_hydra`` (it calls the real one) counts the compositions that were not cache hits.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from omegaconf import OmegaConf

from ime.workflow.errors import ConfigError

C = importlib.import_module("ime.workflow.compose")  # the package exports compose(), the function
K = importlib.import_module("ime.workflow.compose_cache")

REPO_CONFIG = Path(__file__).resolve().parents[2] / "config"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache directory, set through ``IME_COMPOSE_CACHE``."""
    where = tmp_path / "cache"
    monkeypatch.setenv(K.CACHE_ENV, str(where))
    return where


@pytest.fixture
def hydra_calls(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The overrides of every real Hydra composition (a cache hit makes none)."""
    calls: list[list[str]] = []
    real = C._hydra

    def spy(cdir: Path, overrides: list[str]) -> Any:
        calls.append(list(overrides))
        return real(cdir, overrides)

    monkeypatch.setattr(C, "_hydra", spy)
    return calls


@pytest.fixture
def cdir(tmp_path: Path) -> Path:
    """A copy of the repository's config directory that a test may edit."""
    out = tmp_path / "config"
    shutil.copytree(REPO_CONFIG, out)
    return out


def entries(cache: Path) -> list[Path]:
    return sorted(cache.glob("*.json")) if cache.is_dir() else []


@pytest.mark.parametrize("overrides", [[], ["game=doudizhu"], ["game=snake", "scale=tiny"],
                                       ["net=mlp2", "train.lr=0.002"]])
def test_hit_gives_the_composed_config(cache: Path, hydra_calls: list, overrides: list[str]
                                       ) -> None:
    first = C.compose(overrides, REPO_CONFIG)
    composed = len(hydra_calls)
    assert composed >= 1 and len(entries(cache)) == 1
    again = C.compose(overrides, REPO_CONFIG)
    plain = C.compose_plain(overrides, REPO_CONFIG)
    assert len(hydra_calls) == composed  # both from the cache
    expected = C.to_plain(first)
    # the same values with the same types (== alone takes 1 for 1.0 and True)
    assert K.same_values(C.to_plain(again), expected)
    assert K.same_values(plain, expected)
    assert K.same_values(OmegaConf.to_container(again), OmegaConf.to_container(first))
    assert OmegaConf.is_struct(again)  # as Hydra returns it: a misspelt key raises
    with pytest.raises(Exception, match="trian"):
        again.trian  # noqa: B018


@pytest.mark.slow
def test_cached_equals_uncached_for_every_game(cache: Path, monkeypatch: pytest.MonkeyPatch
                                               ) -> None:
    """What the workflow holds (compose_plain) is what composing without a cache gives."""
    for game in C.game_options(REPO_CONFIG):
        monkeypatch.setenv(K.CACHE_ENV, "0")
        uncached = C.compose_plain([f"game={game}"], REPO_CONFIG)
        monkeypatch.setenv(K.CACHE_ENV, str(cache))
        C.compose_plain([f"game={game}"], REPO_CONFIG)  # stores
        hit = C.compose_plain([f"game={game}"], REPO_CONFIG)
        assert json.dumps(hit) == json.dumps(uncached), game
        assert K.same_values(hit, uncached), game


@pytest.mark.slow
def test_every_game_at_every_scale_is_stored(cache: Path, hydra_calls: list) -> None:
    """Every shipped composition can be cached: one that cannot be stored as JSON (a mapping with
    int keys, as config/game/big2.yaml once had) is silently recomposed on every Snakemake call,
    importing its game's plug-in into a no-op rerun."""
    scales = sorted(p.stem for p in (REPO_CONFIG / "scale").glob("*.yaml"))
    combos = [[f"game={g}", f"scale={s}"] for g in C.game_options(REPO_CONFIG) for s in scales]
    for overrides in combos:
        C.compose_plain(overrides, REPO_CONFIG)
    assert len(entries(cache)) == len(combos)
    hydra_calls.clear()
    for overrides in combos:
        C.compose_plain(overrides, REPO_CONFIG)
    assert hydra_calls == []  # every one a hit


def test_changed_yaml_misses(cache: Path, hydra_calls: list, cdir: Path) -> None:
    assert C.compose_plain([], cdir)["train"]["lr"] != 0.123
    path = cdir / "config.yaml"
    text = path.read_text()
    assert "\n  lr: " in text
    path.write_text(text.replace("\n  lr: ", "\n  lr: 0.123 #", 1))
    calls = len(hydra_calls)
    assert C.compose_plain([], cdir)["train"]["lr"] == 0.123
    assert len(hydra_calls) > calls and len(entries(cache)) == 2


def test_added_file_misses(cache: Path, hydra_calls: list, cdir: Path) -> None:
    C.compose([], cdir)
    key = K.cache_key(cdir, [])
    (cdir / "net" / "extra.yaml").write_text("name: extra\n")  # a file no composition reads
    assert K.cache_key(cdir, []) != key
    calls = len(hydra_calls)
    C.compose([], cdir)
    assert len(hydra_calls) > calls and len(entries(cache)) == 2
    key = K.cache_key(cdir, [])
    (cdir / ".notes").write_text("any file counts, hidden or not, YAML or not\n")
    assert K.cache_key(cdir, []) != key


def test_a_copy_of_the_config_directory_hits_and_composes_the_same(
        cache: Path, hydra_calls: list, cdir: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The key names the files' bytes, not the directory's path: a composition holds no path
    of it, so a copied workflow (or a new checkout) reuses the entry, and composing in the copy
    without the cache gives the same config."""
    overrides = ["game=doudizhu", "imitator=lookahead", "scale=tiny"]
    here = C.compose_plain(overrides, cdir)
    copy = tmp_path / "elsewhere" / "config"
    shutil.copytree(cdir, copy)
    assert K.cache_key(copy, overrides) == K.cache_key(cdir, overrides)
    calls = len(hydra_calls)
    assert C.compose_plain(overrides, copy) == here and len(hydra_calls) == calls  # a hit
    assert str(cdir) not in json.dumps(here) and str(tmp_path) not in json.dumps(here)
    monkeypatch.setenv(K.CACHE_ENV, "0")
    assert C.compose_plain(overrides, copy) == here  # composed there, from nothing


def test_removed_file_misses(cdir: Path) -> None:
    key = K.cache_key(cdir, [])
    (cdir / "experiment" / "lr_sweep.yaml").unlink()
    assert K.cache_key(cdir, []) != key


def test_a_snapshot_reads_the_config_files_once(cdir: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Within one ``config_snapshot`` (one workflow setup) the config directory is digested
    once for every key; the next snapshot, and any call outside one, reads it again."""
    digests: list[Path] = []
    real = K._dir_digest
    monkeypatch.setattr(K, "_dir_digest", lambda d: digests.append(d) or real(d))
    with K.config_snapshot():
        key = K.cache_key(cdir, [])
        assert K.cache_key(cdir, ["net=mlp1"]) != key
        with K.config_snapshot():  # nested: the same snapshot
            (cdir / "net" / "extra.yaml").write_text("name: extra\n")
            assert K.cache_key(cdir, []) == key  # read at the snapshot's start
    assert len(digests) == 1
    assert K.cache_key(cdir, []) != key  # outside: read now
    with K.config_snapshot():
        assert K.cache_key(cdir, []) != key  # a new snapshot: read again
    assert len(digests) == 3


def test_other_overrides_miss(cache: Path, hydra_calls: list) -> None:
    base = C.compose_plain([], REPO_CONFIG)
    calls = len(hydra_calls)
    other = C.compose_plain(["train.lr=0.0042"], REPO_CONFIG)
    assert len(hydra_calls) > calls
    assert other["train"]["lr"] == 0.0042 != base["train"]["lr"]
    # the order of the overrides is part of the key (the later one wins in Hydra)
    assert (K.cache_key(REPO_CONFIG, ["net=mlp1", "net=conv"])
            != K.cache_key(REPO_CONFIG, ["net=conv", "net=mlp1"]))
    assert len(entries(cache)) == 2


@pytest.mark.parametrize("bad", [["scale=huge"], ["trian.lr=1"], ["train.lr=fast"]])
def test_bad_override_raises_the_same_error_twice(cache: Path, bad: list[str]) -> None:
    with pytest.raises(ConfigError) as first:
        C.compose(bad, REPO_CONFIG)
    with pytest.raises(ConfigError) as second:
        C.compose(bad, REPO_CONFIG)
    assert str(first.value) == str(second.value)
    assert entries(cache) == []  # failures are never stored


def test_disabled_by_the_env_var(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 hydra_calls: list) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    for off in ("0", "off", "false", "no"):
        monkeypatch.setenv(K.CACHE_ENV, off)
        assert K.cache_dir() is None
        calls = len(hydra_calls)
        C.compose([], REPO_CONFIG)
        assert len(hydra_calls) > calls  # composed again every time
    assert not home.exists()
    monkeypatch.delenv(K.CACHE_ENV)
    assert K.cache_dir() == home / "ime" / "compose"  # the default place
    C.compose([], REPO_CONFIG)
    assert len(entries(home / "ime" / "compose")) == 1


def test_resolver_interpolation_resolves_when_used(cache: Path, cdir: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A value that calls a resolver (``oc.env``) is not stored resolved: a hit resolves it
    again, so the cache gives what composing now would."""
    path = cdir / "config.yaml"
    text = path.read_text()
    assert "raw_dir: data/raw/${game.name}" in text
    path.write_text(text.replace("raw_dir: data/raw/${game.name}",
                                 "raw_dir: ${oc.env:IME_TEST_RAW_DIR,data/raw}", 1))
    monkeypatch.setenv("IME_TEST_RAW_DIR", "first")
    assert C.compose_plain([], cdir)["matches"]["raw_dir"] == "first"
    monkeypatch.setenv("IME_TEST_RAW_DIR", "second")
    assert C.compose_plain([], cdir)["matches"]["raw_dir"] == "second"  # a hit
    assert len(entries(cache)) == 1
    assert json.loads(entries(cache)[0].read_text())["plain"] is None


def test_self_references_are_stored_resolved(cache: Path) -> None:
    plain = C.compose_plain([], REPO_CONFIG)
    entry = json.loads(entries(cache)[0].read_text())
    assert entry["config"]["matches"]["raw_dir"] == "data/raw/${game.name}"
    assert entry["plain"] == plain and plain["matches"]["raw_dir"] == "data/raw/reversi"


def test_unreadable_entry_is_a_miss_and_rewritten(cache: Path, hydra_calls: list) -> None:
    expected = C.compose_plain([], REPO_CONFIG)
    (entry,) = entries(cache)
    entry.write_text("{not json")
    calls = len(hydra_calls)
    assert K.same_values(C.compose_plain([], REPO_CONFIG), expected)
    assert len(hydra_calls) > calls
    assert json.loads(entry.read_text())["format"] == K.CACHE_FORMAT


def test_pruned_to_the_most_recently_used(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(K, "CACHE_MAX_ENTRIES", 2)
    for age, lr in ((20, "0.001"), (10, "0.002")):
        C.compose([f"train.lr={lr}"], REPO_CONFIG)
        path = cache / f"{K.cache_key(REPO_CONFIG, [f'train.lr={lr}'])}.json"
        os.utime(path, (time.time() - age, time.time() - age))  # used 20 s and 10 s ago
    C.compose(["train.lr=0.001"], REPO_CONFIG)  # a hit: used now
    C.compose(["train.lr=0.003"], REPO_CONFIG)  # a third entry: the least recently used goes
    kept = {json.loads(p.read_text())["overrides"][0] for p in entries(cache)}
    assert kept == {"train.lr=0.001", "train.lr=0.003"}


def test_unwritable_cache_still_composes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv(K.CACHE_ENV, str(blocker / "cache"))  # under a file: cannot be made
    assert C.compose_plain([], REPO_CONFIG)["game"]["name"] == "reversi"


@pytest.mark.slow
def test_workflow_plans_are_the_same_with_the_cache(cache: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game's variants (configs, tags, directories: what the rules' params are made of)
    are the same composed by Hydra and read from the cache, so a no-op rerun stays one."""
    from ime.workflow import variants
    from ime.workflow.setup import setup_workflow

    def plans() -> str:
        variants._COMPOSED.clear()  # the in-process memo would hide the disk cache
        wf = setup_workflow({}, REPO_CONFIG)
        return json.dumps({g: [vars(v) for v in p.variants()] for g, p in wf.plans.items()},
                          sort_keys=True, default=str)

    monkeypatch.setenv(K.CACHE_ENV, "0")
    uncached = plans()
    monkeypatch.setenv(K.CACHE_ENV, str(cache))
    stored = plans()
    assert entries(cache)
    assert plans() == stored == uncached


# --- the first Hydra run's findings, kept per process (a sweep's points compose once) --------
@pytest.fixture
def no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """No disk cache and an empty memo of the game's facts: every composition runs Hydra."""
    monkeypatch.setenv(K.CACHE_ENV, "0")
    monkeypatch.setattr(C, "_FACTS", {})


def test_a_sweeps_later_points_run_hydra_once_and_compose_the_same(no_cache, hydra_calls: list
                                                                    ) -> None:
    point = ["game=snake", "scale=quick"]
    C.compose_plain([*point, "train.lr=0.001"])
    assert len(hydra_calls) == 2  # the game and scale first, then with snake's quick settings
    later = C.compose_plain([*point, "train.lr=0.002"])
    assert len(hydra_calls) == 3 and hydra_calls[-1][-1] == "train.lr=0.002"
    C._FACTS.clear()
    assert later == C.compose_plain([*point, "train.lr=0.002"])  # composed twice, as before
    assert later["matches"]["per_target"] == 100 and later["train"]["lr"] == 0.002
    # a net is a group whose files stay in their own node: the facts hold, Hydra runs once
    net = C.compose_plain([*point, "net=snake_mlp1"])
    assert len(hydra_calls) == 5 + 1
    C._FACTS.clear()
    assert net == C.compose_plain([*point, "net=snake_mlp1"]) and net["net"]["name"] == "snake_mlp1"
    # a game.* value, or the option of a group that can reach game (scale), is new: twice
    calls = len(hydra_calls)
    C.compose_plain([*point, "game.scales.quick.matches.per_target=7"])
    C.compose_plain(["game=snake", "scale=tiny", "train.lr=0.002"])
    assert len(hydra_calls) == calls + 2 + 2


def test_a_bad_value_after_a_kept_composition_names_the_users_override(no_cache) -> None:
    C.compose_plain(["game=snake", "scale=quick", "train.lr=0.001"])
    with pytest.raises(ConfigError) as kept:
        C.compose_plain(["game=snake", "scale=quick", "train.lrr=0.001"])
    C._FACTS.clear()
    with pytest.raises(ConfigError) as fresh:
        C.compose_plain(["game=snake", "scale=quick", "train.lrr=0.001"])
    assert str(kept.value) == str(fresh.value)
    assert "train.lrr" in str(kept.value) and "game.scales" not in str(kept.value)


def test_an_edited_game_file_is_read_again(no_cache, cdir: Path) -> None:
    over = ["game=snake", "scale=quick"]
    assert C.compose_plain([*over, "train.lr=0.001"], cdir)["matches"]["per_target"] == 100
    path = cdir / "game" / "snake.yaml"
    path.write_text(path.read_text().replace("matches: {per_target: 100,", "matches: "
                                             "{per_target: 77,", 1))
    assert C.compose_plain([*over, "train.lr=0.002"], cdir)["matches"]["per_target"] == 77
