"""The plug-in facts cache (:mod:`ime.workflow.plugins`): what it hands the workflow equals
what the plug-ins say, it is read back without the plug-in, a change of the code's digest
reads the plug-in again, and a test's own plug-in is never cached."""

from __future__ import annotations

import importlib
import shutil
from pathlib import Path

import pytest
import yaml

from ime.core.registry import _PLUGINS as REGISTERED
from ime.core.registry import GamePlugin, GameType, PluginInfo, get_encoder, get_plugin
from ime.workflow import plugins as W

K = importlib.import_module("ime.workflow.compose_cache")
REPO_CONFIG = Path(__file__).resolve().parents[2] / "config"
GAMES = sorted(p.stem for p in (REPO_CONFIG / "game").glob("*.yaml"))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache directory and no facts remembered by this process."""
    monkeypatch.setenv(K.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(W, "_MEMO", {})
    return tmp_path / "cache" / "plugins"


def _params(game: str) -> dict:
    return (yaml.safe_load((REPO_CONFIG / "game" / f"{game}.yaml").read_text()) or {}).get(
        "params") or {}


def _no_plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on, reading a plug-in or an encoder fails the test."""
    def fail(*args: object) -> None:
        raise AssertionError(f"read the plug-in {args}")

    monkeypatch.setattr(W, "get_plugin", fail)
    monkeypatch.setattr(W, "get_encoder", fail)


@pytest.mark.parametrize("game", GAMES)
def test_cached_facts_equal_the_plugins(game: str, cache: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    plugin = get_plugin(game)
    enc = get_encoder(game, _params(game))
    info = W.plugin_info(game)
    shape = W.encoder_info(game, _params(game))
    assert info == PluginInfo.of(plugin)
    assert info.kinds == tuple(sorted(plugin.bot_kinds)) and info.kinds
    assert shape == {"state_shape": list(enc.state_shape), "num_actions": enc.num_actions,
                     "head_sizes": list(enc.head_sizes),
                     "afterstate_features": list(enc.afterstate_features)}
    assert info.encoder_params == tuple(plugin.encoder_params)
    assert len(list(cache.glob(f"*-{game}-plugin.json"))) == 1
    assert len(list(cache.glob(f"*-{game}-encoder-*.json"))) == 1
    monkeypatch.setattr(W, "_MEMO", {})  # another process: only the files remain
    _no_plugin(monkeypatch)
    assert W.plugin_info(game) == info
    assert W.encoder_info(game, _params(game)) == shape


def test_results_needs_and_doc_come_through() -> None:
    info = PluginInfo.of(get_plugin("doudizhu"))
    assert info.results  # Doudizhu's Table 5.10 reads tournament_games.csv
    needs = {n: needs for n, (needs, _) in info.results.items()}
    assert "tournament_games.csv" in {f for v in needs.values() for f in v}
    assert PluginInfo.from_json(info.to_json()) == info
    assert get_plugin("doudizhu").game_type.teams == info.teams and info.teams


def test_another_code_digest_reads_the_plugin_again(cache: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    W.plugin_info("connect4")
    monkeypatch.setattr(W, "_MEMO", {})
    monkeypatch.setattr(K, "code_digest", lambda: "another-code")
    calls = []
    real = W.get_plugin
    monkeypatch.setattr(W, "get_plugin", lambda g: calls.append(g) or real(g))
    W.plugin_info("connect4")
    assert calls == ["connect4"]
    assert len(list(cache.glob("*-connect4-plugin.json"))) == 2


def test_a_corrupt_entry_is_read_from_the_plugin(cache: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    info = W.plugin_info("snake")
    (path,) = cache.glob("*-snake-plugin.json")
    path.write_text("{not json")
    monkeypatch.setattr(W, "_MEMO", {})
    assert W.plugin_info("snake") == info


def test_a_tests_own_plugin_is_read_directly_and_never_cached(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = get_plugin("reversi")
    fake = GamePlugin(GameType("reversi", "Fake Reversi", 2, teams=((0,), (1,))),
                      make_game=real.make_game, make_encoder=real.make_encoder,
                      artifacts={"tournament.csv": "mine.csv"})
    monkeypatch.setitem(REGISTERED, "reversi", fake)
    info = W.plugin_info("reversi")
    assert info.artifacts == {"tournament.csv": "mine.csv"} and info.teams == ((0,), (1,))
    assert info.kinds == ()
    assert not cache.exists() or not list(cache.glob("*-reversi-*.json"))


def test_no_cache_with_the_composition_cache_off(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(K.CACHE_ENV, "0")
    monkeypatch.setattr(W, "_MEMO", {})
    assert W.plugin_info("gongzhu") == PluginInfo.of(get_plugin("gongzhu"))
    assert W._cache_path("gongzhu-plugin") is None


def test_an_unknown_game_raises_and_caches_nothing(cache: Path) -> None:
    with pytest.raises(KeyError, match="unknown game 'chess'"):
        W.plugin_info("chess")
    assert not cache.exists() or not list(cache.iterdir())


def test_checked_bot_specs_are_cached_per_file_and_a_bad_file_is_never(
        cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ime.workflow.errors import ConfigError
    from ime.workflow.schema import bots as schema_bots
    from ime.workflow.setup import load_specs

    cdir = tmp_path / "config"
    (cdir / "bots").mkdir(parents=True)
    monkeypatch.setenv("IME_CONFIG_DIR", str(cdir))
    path = cdir / "bots" / "connect4.yaml"
    good = (REPO_CONFIG / "bots" / "connect4.yaml").read_text()
    path.write_text(good + "\nc4_bad:\n  kind: no_such_kind\n")
    for _ in range(2):  # the error every time: a failure is not cached
        with pytest.raises(ConfigError, match="unknown kind.*no_such_kind"):
            load_specs("connect4")
    path.write_text(good)
    specs = load_specs("connect4")
    assert specs == yaml.safe_load(good) and list(specs) == list(yaml.safe_load(good))
    calls = []
    real = schema_bots.validate_bot_specs
    monkeypatch.setattr(schema_bots, "validate_bot_specs",
                        lambda *a: calls.append(a[0]) or real(*a))
    monkeypatch.setattr(W, "_MEMO", {})  # another process: only the files remain
    again = load_specs("connect4")
    assert again == specs and calls == []  # from the cache, not validated again
    again["c4_uct2k"]["kind"] = "changed"  # a caller's change reaches no other caller
    assert load_specs("connect4") == specs
    path.write_text(good + "\nc4_more:\n  kind: uct\n  params: {simulations: 10}\n")
    assert "c4_more" in load_specs("connect4") and calls == ["connect4"]
    # a copy of the config directory (a copied workflow) with the same bytes: no new check
    copy = tmp_path / "copy" / "config"
    shutil.copytree(cdir, copy)
    monkeypatch.setenv("IME_CONFIG_DIR", str(copy))
    monkeypatch.setattr(W, "_MEMO", {})
    assert "c4_more" in load_specs("connect4") and calls == ["connect4"]
