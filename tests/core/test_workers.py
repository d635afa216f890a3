"""Worker counts of a job (ime.core.workers): ``auto`` follows the cores, an int is taken as is."""

from __future__ import annotations

import os

import pytest

from ime.core.workers import AUTO, EVAL_WORKERS_CAP, check_workers, job_workers


@pytest.fixture
def many_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 64-CPU machine, so that the granted cores decide."""
    monkeypatch.setenv("IME_CPU_COUNT", "64")


@pytest.mark.parametrize(("cores", "expected"), [
    (1, 1),    # one core: the job takes it (nothing to leave it to)
    (2, 1),    # the 2-core box: one core left to the jobs that feed training
    (4, 1),
    (16, 5),   # a 16-core GPU machine: a third of 15, so jobs run side by side with training
    (64, EVAL_WORKERS_CAP),  # past the cap more workers are not used
])
def test_auto_is_a_share_of_the_cores_less_one_within_the_cap(cores: int, expected: int,
                                                       many_cpus: None) -> None:
    assert job_workers(AUTO, cores) == expected


def test_an_int_is_an_explicit_override_and_items_cap_both(many_cpus: None) -> None:
    assert job_workers(4, 2) == 4  # Snakemake itself lowers a rule's threads to --cores
    assert job_workers(1, 16) == 1
    assert job_workers(AUTO, 16, items=2) == 2  # a tournament pair of 2 games: 2 workers
    assert job_workers(8, 16, items=100) == 8
    assert job_workers(AUTO, 16, items=0) == 1  # never 0 processes


def test_granted_cores_beyond_the_machine_do_not_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IME_CPU_COUNT", "2")
    assert job_workers(AUTO, 8) == 1  # snakemake -j8 on a 2-core box: 2 CPUs, one kept back
    monkeypatch.setenv("IME_CPU_COUNT", "two")
    with pytest.raises(ValueError, match="IME_CPU_COUNT"):
        job_workers(AUTO, 8)


def test_auto_without_cores_reads_this_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("IME_CPU_COUNT", raising=False)
    n = len(os.sched_getaffinity(0))
    assert job_workers(AUTO) == max(1, min(EVAL_WORKERS_CAP, (n - 1 if n > 1 else 1) // 3))


@pytest.mark.parametrize("bad", [0, -2, True, 1.5, "two", None])
def test_a_bad_count_names_the_key(bad: object) -> None:
    with pytest.raises(ValueError, match=r"evaluate\.workers must be >= 1 or 'auto'"):
        check_workers(bad)
    assert check_workers(3) == 3 and check_workers("auto") == "auto"
