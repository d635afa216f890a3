"""A long fit stopped and started again resumes after its last finished stage and ends where an
unstopped fit does (ime.imitators.fit_state): a thesis-scale Reversi fold takes hours, and a
train job's stop would otherwise throw away every fold it had fitted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ime.imitators.fit_state import STATE_SUFFIX, FitState, fit_key, state_path_of


class Stop(Exception):
    """A stop in the middle of a fit (a session's end, a cluster's time limit)."""


def test_a_state_keeps_each_stage_as_saved_and_sets_another_fits_aside(tmp_path: Path) -> None:
    path = tmp_path / "fold0.pt" / ".." / "fold0.pt.fitstate.json"
    said: list[str] = []
    st = FitState(path, "k1", said.append)
    assert st.get("surrogate") is None and not path.exists()
    w = np.array([0.1, 1 / 3, -2.5e-17, 1e300])
    st.put("surrogate", [{"acc": 92.49918113331150, "weights": w, "pv_first": True,
                          "train_acc_before": float("nan"), "pass_": 3}])
    back = FitState(path, "k1", said.append).get("surrogate")[0]
    assert back["weights"].dtype == np.float64 and back["weights"].tobytes() == w.tobytes()
    assert back["acc"] == 92.4991811333115 and back["pv_first"] is True and back["pass_"] == 3
    assert np.isnan(back["train_acc_before"])
    assert said[-1].endswith("resuming after 1 kept stage(s), the last: surrogate")
    # another fit's state (another key) is not read, and the log says why
    assert FitState(path, "k2", said.append).get("surrogate") is None
    assert "another fit's" in said[-1] and str(path) in said[-1]
    # a file cut short (a stop while writing by other means) is set aside, naming the file
    path.write_text(path.read_text()[:40])
    assert FitState(path, "k1", said.append).get("surrogate") is None
    assert "unreadable" in said[-1] and str(path) in said[-1]
    assert state_path_of(tmp_path / "m" / "fold3.pt") == tmp_path / "m" / ("fold3.pt"
                                                                           + STATE_SUFFIX)


def test_the_key_names_the_config_and_the_files_but_not_the_runtime_keys(tmp_path: Path
                                                                          ) -> None:
    data = tmp_path / "d.parquet"
    data.write_bytes(b"positions")
    cfg = {"net": {"search": {"depths": [1, 2]}}, "train": {"seed": 0, "threads": 1}}
    key = fit_key(cfg, [data])
    assert key == fit_key(json.loads(json.dumps(cfg)), [data])
    assert key == fit_key({**cfg, "train": {"seed": 0, "threads": 16}}, [data])
    assert key != fit_key({**cfg, "train": {"seed": 1, "threads": 1}}, [data])
    assert key != fit_key({"net": {"search": {"depths": [1, 2, 3]}}, "train": cfg["train"]},
                          [data])
    data.write_bytes(b"other positions")
    assert key != fit_key(cfg, [data])


@pytest.mark.slow
def test_a_fit_stopped_anywhere_resumes_there_and_ends_as_an_unstopped_fit(tmp_path: Path
                                                                           ) -> None:
    """Stopped in the surrogate's passes, in the budget stage and when the round-value stage
    starts its second run, and started again each time, the fit replays the passes its state
    holds (their log lines marked ``[fit state]``), computes only the rest, and ends with the
    weights, settings and selection grid of the fit that was never stopped."""
    from ime.imitators.search_fit import FitConfig, fit
    from imitators.test_round_values import _table_bot_decisions

    train, select, _ = _table_bot_decisions({}, seed=7)
    cfg = FitConfig(depths=(1, 2), passes=3, phases=(1,), ties=("first", "last"),
                    endgames=(0,), endgame_modes=("exact",), budgets=(150, 300),
                    orderings=("static",), pv_firsts=(True,), budget_passes=2,
                    round_evals=60, round_positions=600, round_repeats=2)
    whole_log: list[str] = []
    whole = fit(train, select, cfg, log=whole_log.append)
    assert [g["stage"] for g in whole.summary["grid"]].count("round") == 2
    passes = [line.split(":")[0] for line in whole_log if line.startswith("phases=1 ")]
    assert "phases=1 depth=2 pass=1" in passes and "phases=1 budget stage pass=1" in passes

    path = tmp_path / "fold0.pt.fitstate.json"
    key = "a fit"
    for stop in ("phases=1 depth=2 pass=1", "phases=1 budget stage pass=1",
                 "round values: the stage again"):
        said: list[str] = []

        def say(line: str, stop: str = stop, said: list[str] = said) -> None:
            said.append(line)
            if line.startswith(stop) and not line.endswith("[fit state]"):
                raise Stop(line)

        with pytest.raises(Stop):
            fit(train, select, cfg, log=say, state=FitState(path, key))
        replayed = [line.split(":")[0] for line in said if line.endswith("[fit state]")]
        computed = [line.split(":")[0] for line in said
                    if line.startswith("phases=1 ") and not line.endswith("[fit state]")]
        # each pass searched once over the stops: what one stop computed, the next replays
        assert replayed + computed == passes[:len(replayed + computed)]
    assert set(FitState(path, key).stages) >= {"surrogate", "round 1"}
    said = []
    resumed = fit(train, select, cfg, log=said.append, state=FitState(path, key, said.append))
    assert said[0].startswith(f"fit state {path}: resuming after ")
    assert not any(line.startswith("phases=") for line in said)  # the whole stage is kept
    assert sum(line.startswith("round values: select acc") for line in said) == 1
    assert resumed.weights.tobytes() == whole.weights.tobytes()
    assert resumed.settings == whole.settings
    # (as JSON: the budget stage's train_acc_before is NaN, which equals nothing)
    assert json.dumps(resumed.summary["grid"]) == json.dumps(whole.summary["grid"])
    assert resumed.summary["select_acc"] == whole.summary["select_acc"]
    # the state of another config is set aside: the fit starts from nothing
    said.clear()
    fit(train, select, FitConfig(depths=(1,), passes=1, phases=(1,), ties=("first",),
                                 endgames=(0,), endgame_modes=("exact",)),
        log=said.append, state=FitState(path, "another fit", said.append))
    assert "another fit's" in said[0] and any(line.startswith("phases=") for line in said)
    assert not any(line.endswith("[fit state]") for line in said)


@pytest.mark.slow
def test_a_train_job_stopped_after_two_folds_refits_only_the_third(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A train job of three folds stopped in the third: Snakemake deletes the job's outputs and
    runs it again. The folds written before the stop come back from their states (the same
    bytes, not fitted or scored again), the third is fitted, every file equals an unstopped
    job's, and no state is left once the job ends."""
    import ime.imitators.reversi_family as reversi_family
    from ime.train.ensemble import Member, train_members
    from imitators.test_family import FAST, TRAIN, _dataset

    ds = tmp_path / "t.parquet"
    _dataset(ds, n=600)
    net = {"name": "search", "kind": "search",
           "search": {**FAST, "depths": [1], "passes": 1, "ties": ["first", "last"]}}
    real = reversi_family.fit
    calls: list[int] = []

    def counted(*args: Any, **kw: Any) -> Any:
        calls.append(1)
        if stop_after is not None and len(calls) > stop_after:
            raise Stop("the job is stopped")
        return real(*args, **kw)

    monkeypatch.setattr(reversi_family, "fit", counted)

    def job(name: str) -> tuple[list[Path], list[dict[str, Any]]]:
        d = tmp_path / name
        d.mkdir(exist_ok=True)
        members = [Member(net, k, d / f"fold{k}.pt", d / f"fold{k}.json") for k in range(3)]
        metrics = train_members(ds, members, TRAIN, bot="t", threads=1, progress=False)
        return [d / f"fold{k}.pt" for k in range(3)], metrics

    stop_after = None
    whole, whole_metrics = job("whole")
    assert len(calls) == 3 and not list((tmp_path / "whole").glob("*" + STATE_SUFFIX))
    calls.clear()
    stop_after = 2
    with pytest.raises(Stop):
        job("stopped")
    stopped = tmp_path / "stopped"
    assert sorted(p.name for p in stopped.glob("*" + STATE_SUFFIX)) == [
        "fold0.pt" + STATE_SUFFIX, "fold1.pt" + STATE_SUFFIX]
    written = {name: (stopped / name).read_bytes()
               for name in ("fold0.pt", "fold0.json", "fold1.pt", "fold1.json")}
    for f in list(stopped.glob("fold?.pt")) + list(stopped.glob("fold?.json")):
        f.unlink()  # what Snakemake does to an incomplete job's outputs
    calls.clear()
    stop_after = None
    again, again_metrics = job("stopped")
    assert len(calls) == 1  # the third fold alone was fitted
    for name, data in written.items():  # the first two written again as they were
        assert (stopped / name).read_bytes() == data
    for a, b in zip(whole, again, strict=True):  # and every fold as an unstopped job's
        assert a.read_bytes() == b.read_bytes()
    for m, n in zip(whole_metrics, again_metrics, strict=True):
        assert ({k: v for k, v in m.items() if k != "timing"}
                == {k: v for k, v in n.items() if k != "timing"})
    assert not list(stopped.glob("*" + STATE_SUFFIX))
