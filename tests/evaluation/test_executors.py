"""The same seed gives bit-identical records serially, in local processes and on Dask."""
import json
import sys
import time
from collections import Counter

import pytest
import yaml
from click.testing import CliRunner

from bayesbench.cli import main
from bayesbench.config import parse_config
from bayesbench.evaluation.executors import map_jobs
from bayesbench.evaluation.store import read_records
from helpers import run, stable_order, without_timings


def _raw(uci_dir, out):
    # Every source of randomness is used: random imputation, noise on both sides,
    # a learner with random_state, several repetitions.
    return {"name": "det", "seed": 11, "data_dirs": [str(uci_dir)],
            "datasets": ["iris", "house-votes-84"],
            "preprocess": {"impute": "weighted_random", "discretize": "mdl",
                           "noise": {"fraction": 0.3, "on": "both"}},
            "cv": {"folds": 3, "repeats": 2},
            "classifiers": ["nb", "tan", "gnb", {"name": "fss", "params": {"inner_folds": 2}},
                            "tan_ld", "kdb_ld", "aode_ld", "hnb", "waode",
                            {"name": "tan", "label": "tan_cll", "params": {"estimator": "cll"}}],
            "output": str(out)}


def _config(uci_dir, out):
    return parse_config(_raw(uci_dir, out), base_dir=out.parent)


def _records(run_dir):
    return [without_timings(r) for r in stable_order(read_records(run_dir))]


@pytest.fixture(scope="module")
def serial(uci_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("serial") / "run"
    result = run(_config(uci_dir, out), jobs=1, quiet=True)
    assert result.n_run == 2 * 2 * 3 * 10
    return _records(out)


def test_processes_match_serial(serial, uci_dir, tmp_path):
    out = tmp_path / "run"
    run(_config(uci_dir, out), jobs=2, quiet=True)
    assert _records(out) == serial


def test_dask_local_cluster_matches_serial(serial, uci_dir, tmp_path):
    distributed = pytest.importorskip("distributed")
    config = tmp_path / "det.yaml"
    config.write_text(yaml.safe_dump(_raw(uci_dir, tmp_path / "ignored")))
    out = tmp_path / "run"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        # Through the command line: --scheduler and --output override the config.
        result = CliRunner().invoke(main, ["run", str(config), "--scheduler",
                                           cluster.scheduler_address, "--output", str(out),
                                           "--quiet"])
    assert result.exit_code == 0, result.output
    assert _records(out) == serial
    assert not (tmp_path / "ignored").exists()
    sessions = json.loads((out / "environment.json").read_text())["sessions"]
    assert sessions[0]["executor"].startswith("dask (tcp://")


def test_the_examples_of_the_executors_hold():
    import doctest

    from bayesbench.evaluation import executors

    result = doctest.testmod(executors)
    assert result.attempted >= 2 and result.failed == 0


def _cluster_workers():
    """The worker processes of local Dask clusters this process started (spawned, not forked)."""
    import psutil

    return [p for p in psutil.Process().children(recursive=True)
            if "spawn_main" in " ".join(p.cmdline())]


def test_scheduler_local_gives_the_records_of_jobs_2_and_stops_its_cluster(uci_dir, tmp_path):
    from bayesbench.evaluation.executors import thread_share

    raw = {"name": "local", "seed": 5, "data_dirs": [str(uci_dir)],
           "datasets": ["iris", "house-votes-84"], "cv": {"folds": 2},
           "classifiers": ["nb", {"name": "fss", "params": {"inner_folds": 2}}]}
    config = tmp_path / "local.yaml"
    config.write_text(yaml.safe_dump(raw))
    records = {}
    for name, flags in (("processes", []), ("local", ["--scheduler", "local"])):
        result = CliRunner().invoke(main, ["run", str(config), "--jobs", "2", "-q", "-o",
                                           str(tmp_path / name), *flags])
        assert result.exit_code == 0, result.output
        records[name] = _records(tmp_path / name)
    assert records["local"] == records["processes"] and len(records["local"]) == 2 * 2 * 2
    session = json.loads((tmp_path / "local" / "environment.json").read_text())["sessions"][-1]
    assert session["executor"] == "dask (local cluster of 2 workers)"
    assert session["worker_threads"] == thread_share(2)
    assert yaml.safe_load((tmp_path / "local" / "config.yaml").read_text())["scheduler"] == "local"
    assert not _cluster_workers()


def _pools_or_fail(i):
    if i == "fail":
        raise ZeroDivisionError("a job failed")
    return _pools(i)


def test_a_local_cluster_limits_its_workers_threads_and_is_stopped_by_an_error():
    from bayesbench.evaluation.executors import connected

    share = max(1, _cores() // 2)
    with pytest.raises(ZeroDivisionError, match="a job failed"):
        with connected("local", jobs=2) as client:
            assert len(_cluster_workers()) == 2
            pools = {p for _, p in map_jobs(_pools_or_fail, list(range(4)), scheduler=client)}
            assert pools == {(frozenset({share}), str(share))}
            list(map_jobs(_pools_or_fail, ["fail"], scheduler=client))
    assert not _cluster_workers()


def test_records_use_their_randomness(serial):
    # Guard against the comparison above passing because nothing random happened:
    # the noisy folds of one data set do not all shuffle the same attributes.
    accs = {r["metrics"]["accuracy"] for r in serial
            if r["dataset"] == "iris" and r["classifier"] == "nb"}
    assert len(accs) > 1
    seeds = {r["params"]["random_state"] for r in serial if r["learner"] == "fss"}
    assert len(seeds) == 2 * 2 * 3


def _worker_state(_):
    """What a worker process is set up with: the signal Linux sends it when its parent
    dies, and how it takes Ctrl-C and SIGTERM."""
    import ctypes
    import os
    import signal

    value = ctypes.c_int()
    ctypes.CDLL(None).prctl(2, ctypes.byref(value), 0, 0, 0)  # PR_GET_PDEATHSIG
    return (os.getpid(), value.value, signal.getsignal(signal.SIGINT),
            signal.getsignal(signal.SIGTERM))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_workers_die_with_their_parent_and_leave_signals_to_it():
    import os
    import signal

    from bayesbench.evaluation.executors import map_jobs

    states = [state for _, state in map_jobs(_worker_state, list(range(6)), jobs=2)]
    assert all(pid != os.getpid() for pid, *_ in states)
    assert {state[1:] for state in states} == {(int(signal.SIGKILL), signal.SIG_IGN,
                                                signal.SIG_DFL)}


def _slow(seconds):
    import time

    time.sleep(seconds)
    return seconds


def test_an_interrupted_pool_ends_its_workers_at_once():
    import time

    from bayesbench.evaluation.executors import map_jobs

    started = time.monotonic()
    results = map_jobs(_slow, [0.0, 30.0, 30.0, 30.0], jobs=2)
    assert next(results)[1] == 0.0
    results.close()  # as when Ctrl-C or SIGTERM unwinds the consumer
    assert time.monotonic() - started < 15, "the running jobs were waited for"


# ------------------------------------------------- a data set travels once to a worker
def _sharing_jobs(tmp_path, n_jobs=12):
    from helpers import Shared, SharingJob

    log = tmp_path / "unpickled.txt"
    log.touch()
    parts = [Shared(log), Shared(log, size=10)]  # two data sets, each shared by six jobs
    return [SharingJob(i, parts[i % 2]) for i in range(n_jobs)], log


def _expected(jobs):
    return {i: job.i + int(job.shared.payload.sum()) for i, job in enumerate(jobs)}


def test_forked_workers_inherit_the_shared_part_instead_of_receiving_it(tmp_path):
    from helpers import shared_sum

    jobs, log = _sharing_jobs(tmp_path)
    assert dict(map_jobs(shared_sum, jobs, jobs=2)) == _expected(jobs)
    assert log.read_text() == ""  # never pickled: before, once with each of the 12 jobs


def test_dask_sends_each_shared_part_at_most_once_to_a_worker(tmp_path):
    distributed = pytest.importorskip("distributed")
    from helpers import shared_sum

    jobs, log = _sharing_jobs(tmp_path)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        assert dict(map_jobs(shared_sum, jobs, scheduler=client)) == _expected(jobs)
        copies = Counter(log.read_text().split())
        # At most one copy of each part per worker (2 parts, 2 workers), where every job
        # carried its own before; and none is left on the cluster once its jobs are done.
        assert 1 <= sum(copies.values()) <= 4 and max(copies.values()) <= 2
        left = None
        for _ in range(100):  # releases reach the scheduler asynchronously
            left = client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))
            if not left:
                break
            time.sleep(0.1)
        assert left == 0


# ------------------------------------------------- each worker's BLAS and OpenMP threads
def _pools(_):
    """The thread counts of the BLAS and OpenMP libraries loaded in this process, and the
    variable that sizes a pool loaded later."""
    import os

    from threadpoolctl import threadpool_info

    return (frozenset(p["num_threads"] for p in threadpool_info()),
            os.environ.get("OPENBLAS_NUM_THREADS"))


def _cores():
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def test_worker_processes_get_their_share_of_the_cores_and_the_serial_path_is_left_alone():
    import sklearn.linear_model  # noqa: F401 - loads scikit-learn's OpenMP before the fork
    from threadpoolctl import threadpool_info

    apis = {p["user_api"] for p in threadpool_info()}
    assert {"blas", "openmp"} <= apis, apis  # both kinds are limited, not just one
    before = _pools(None)
    share = max(1, _cores() // 2)
    assert {pools for _, pools in map_jobs(_pools, list(range(4)), jobs=2)} == {
        (frozenset({share}), str(share))}
    assert {pools for _, pools in map_jobs(_pools, list(range(4)), jobs=2, threads=3)} == {
        (frozenset({3}), "3")}
    assert {pools for _, pools in map_jobs(_pools, list(range(4)), jobs=1)} == {before}
    assert _pools(None) == before  # the limits stayed in the workers


def test_dask_workers_get_their_share_of_their_host(tmp_path):
    distributed = pytest.importorskip("distributed")
    # Two one-thread workers on this host: each gets half of its cores.
    share = max(1, _cores() // 2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        pools = {p[0] for _, p in map_jobs(_pools, list(range(6)), scheduler=client)}
    assert pools == {frozenset({share})}


def test_the_environment_records_each_workers_threads(uci_dir, tmp_path):
    raw = {"name": "threads", "data_dirs": [str(uci_dir)], "datasets": ["iris"],
           "cv": {"folds": 2}, "classifiers": ["nb"], "worker_threads": 1}
    for jobs, expected in ((2, 1), (1, None)):
        out = tmp_path / f"jobs{jobs}"
        run(parse_config({**raw, "output": str(out)}, base_dir=tmp_path), jobs=jobs,
            quiet=True)
        session = json.loads((out / "environment.json").read_text())["sessions"][-1]
        assert session["worker_threads"] == expected
        assert yaml.safe_load((out / "config.yaml").read_text())["worker_threads"] == 1


@pytest.mark.timeout(60)
def test_a_ctrl_c_while_the_futures_are_waited_for_leaves_none_of_their_locks_held(monkeypatch):
    # concurrent.futures.wait takes every future's lock, one after another, before it waits: a
    # KeyboardInterrupt between two takes left the first held, and the pool's shutdown, which
    # cancels the futures, waited for it forever (a Ctrl-C of a --jobs 2 run hung so, rarely).
    import os
    import signal

    from bayesbench.evaluation import executors

    real_wait, held = executors.wait, []

    def wait_interrupted_between_two_takes(fs, timeout=None, return_when=None):
        futures = list(fs)
        for i, future in enumerate(futures):
            future._condition.acquire()
            held.append(future)
            if i == 0 and len(futures) > 1:
                os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, here
                time.sleep(0.05)  # where its handler runs, between two takes
        for future in futures:
            future._condition.release()
        held.clear()
        return real_wait(fs, timeout=timeout, return_when=return_when)

    monkeypatch.setattr(executors, "wait", wait_interrupted_between_two_takes)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        for _ in map_jobs(time.sleep, [2.0] * 4, jobs=2):
            pass
    assert held == []  # every lock taken was given back
    assert time.monotonic() - started < 2.0  # the running jobs were not waited for
