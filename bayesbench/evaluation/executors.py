"""Where the work runs: in this process, in local worker processes, or on a Dask cluster
(one running at an address, or a local one started for the run: :data:`LOCAL`).

Each executor maps a picklable function over a list of jobs and yields
``(index, result)`` pairs as jobs finish, in any order. Workers only compute;
the calling process is the only one that writes results, so a record is never
written twice or interleaved. The results do not depend on the executor: every
job carries its own seeds.

A job may share a large part with other jobs (a fold job's data set): a job with
``detach() -> (light job, shared part)`` and ``attach(shared part) -> job`` has its
shared part sent to each worker at most once, not with every job. Forked worker
processes inherit it from this process; on Dask it is scattered once and released
when the last job reading it is done.

Each worker limits the threads of its BLAS and OpenMP libraries to its share of the
cores (:func:`thread_share`, or the number the caller gives): left alone, every worker's
numpy would start a thread per core, and two workers on two cores would run four busy
threads that slow each other down (a LogisticRegression fold took ten times longer).
The serial path leaves this process's libraries alone.
"""
from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import re
import signal
import sys
import threading
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Callable, Iterator, Sequence

from threadpoolctl import threadpool_limits

from ..errors import BayesbenchError


# A Dask scheduler address: an optional protocol, a host (an IPv6 one in brackets), a port.
_ADDRESS = re.compile(r"^(?:[a-z][a-z0-9+.-]*://)?(?:\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):\d+/?$")
ADDRESS_EXAMPLE = "tcp://scheduler-host:8786"
#: The scheduler that starts a Dask cluster on this machine for the run and stops it after.
LOCAL = "local"


def scheduler_problem(text: str) -> str | None:
    """None if ``text`` is :data:`LOCAL` or has the form of a Dask scheduler address, such
    as ``tcp://scheduler-host:8786`` (whether a scheduler listens there is another matter);
    else what is wrong with it.

    Examples
    --------
    >>> scheduler_problem("local") is None and scheduler_problem("tcp://10.0.0.5:8786") is None
    True
    >>> scheduler_problem("locl")
    "'locl' is neither 'local' nor a Dask scheduler address such as tcp://scheduler-host:8786"
    """
    if text == LOCAL or _ADDRESS.match(text):
        return None
    return (f"'{text}' is neither '{LOCAL}' nor a Dask scheduler address such as "
            f"{ADDRESS_EXAMPLE}")


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def thread_share(jobs: int) -> int:
    """The BLAS and OpenMP threads of each of ``jobs`` local workers: its share of the cores."""
    return max(1, default_jobs() // jobs)


# The variables that size the thread pools of libraries a worker loads after it starts
# (threadpoolctl limits those already loaded).
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")


def limit_threads(threads: int) -> None:
    """Limit this worker process's BLAS and OpenMP thread pools to ``threads``, for the
    libraries loaded now and those loaded later."""
    for name in THREAD_VARIABLES:
        os.environ[name] = str(threads)
    threadpool_limits(limits=threads)


def unused_threads(jobs: int | None, scheduler, threads: int | None) -> str | None:
    """Why ``threads`` (each worker's BLAS and OpenMP threads) would be ignored, or None:
    ``jobs`` 1 runs every task in this process, which has no worker and whose libraries
    are left alone."""
    if threads is None or scheduler is not None or jobs != 1:
        return None
    return (f"{threads} thread(s) of each worker, but jobs 1 runs every task in this process, "
            f"which has no workers (its threads are left alone); leave the threads out or "
            f"give more jobs")


def worker_threads(jobs: int | None, scheduler, threads: int | None):
    """What each worker's thread pools are limited to, as the run's environment records it:
    None on the serial path (left alone), ``threads`` when given, else the share."""
    if scheduler == LOCAL:
        return threads or thread_share(jobs or default_jobs())
    if scheduler is not None:
        return threads or "each worker's share of its host's cores"
    jobs = jobs or default_jobs()
    return None if jobs == 1 else threads or thread_share(jobs)


def describe(jobs: int | None, scheduler) -> str:
    if scheduler == LOCAL:
        return f"dask (local cluster of {jobs or default_jobs()} workers)"
    if scheduler is not None:
        return f"dask ({scheduler if isinstance(scheduler, str) else 'client'})"
    jobs = jobs or default_jobs()
    return "serial" if jobs == 1 else f"processes ({jobs})"


def map_jobs(fn: Callable, jobs_list: Sequence, *, jobs: int | None = None,
            scheduler=None, threads: int | None = None) -> Iterator[tuple[int, object]]:
    """Run ``fn`` on every job; yield ``(index, fn(job))`` as each finishes.

    ``scheduler`` (a Dask scheduler address such as ``tcp://host:6786``, :data:`LOCAL`
    for a local cluster of ``jobs`` workers started for this call, or a
    ``distributed.Client``) selects Dask; otherwise ``jobs`` worker processes,
    or this process when ``jobs`` is 1 (``None``: all cores). ``threads`` limits the BLAS
    and OpenMP threads of each worker (None: its share of the cores; see the module
    docstring).
    """
    if scheduler is not None:
        yield from _dask(fn, jobs_list, scheduler, jobs, threads)
        return
    jobs = jobs or default_jobs()
    if jobs == 1 or len(jobs_list) <= 1:
        for i, job in enumerate(jobs_list):
            yield i, fn(job)
        return
    yield from _processes(fn, jobs_list, jobs, threads or thread_share(jobs))


def split_shared(jobs_list: Sequence) -> tuple[list, list, dict]:
    """``(light jobs, keys, shared parts by key)``: each job's shared part (see the module
    docstring) replaced by a key, one per distinct part; key None for a job without one."""
    light, keys, shared = [], [], {}
    for job in jobs_list:
        if not callable(getattr(job, "detach", None)):
            light.append(job)
            keys.append(None)
            continue
        job, part = job.detach()
        shared.setdefault(id(part), part)
        light.append(job)
        keys.append(id(part))
    return light, keys, shared


# The shared parts of the jobs of the pool being started, which its forked workers inherit.
_INHERITED: dict = {}


def _with_inherited(fn, job, key):
    return fn(job if key is None else job.attach(_INHERITED[key]))


def _with_part(fn, job, part, shares):
    _limit_dask_worker(shares)
    return fn(job if part is None else job.attach(part))


def _limit_dask_worker(shares) -> None:
    """Limit the Dask worker process running this task to its entry of ``shares`` (an int:
    every worker's; a mapping: by worker address). Once per worker: the limit is the
    process's, shared by its threads, so a context manager per task would undo another's."""
    from distributed import get_worker  # lazy: optional; only a Dask worker runs this

    worker = get_worker()
    if getattr(worker, "_bayesbench_threads", None) is not None:
        return
    threads = shares if isinstance(shares, int) else shares.get(worker.address)
    if threads is None:  # a worker that joined after the run began: its own cores' share
        threads = max(1, default_jobs() // max(1, worker.state.nthreads))
    limit_threads(threads)
    worker._bayesbench_threads = threads


def _dask_shares(client) -> dict:
    """Each Dask worker's share of its host's cores: the cores over the tasks that all the
    workers of that host run at once (two one-thread workers on two cores: one each)."""
    workers = client.scheduler_info(n_workers=-1)["workers"]
    cores = client.run(default_jobs)
    per_host = Counter()
    for info in workers.values():
        per_host[info["host"]] += info["nthreads"]
    return {address: max(1, cores.get(address, 1) // max(1, per_host[info["host"]]))
            for address, info in workers.items()}


def _processes(fn, jobs_list, jobs, threads) -> Iterator[tuple[int, object]]:
    forked = _CONTEXT is not None
    light, keys, shared = split_shared(jobs_list) if forked else (jobs_list, [None] * len(
        jobs_list), {})
    _INHERITED.clear()
    _INHERITED.update(shared)  # before the pool forks its workers, so that they have it
    # Keep only a bounded number of jobs in flight so that a long run does not
    # pickle every job up front, and an interrupted one stops quickly.
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(jobs_list)), mp_context=_CONTEXT,
                               initializer=worker_start, initargs=(os.getpid(), threads))
    try:
        pending, queue = {}, iter(enumerate(zip(light, keys)))

        def submit(i, job, key):
            pending[pool.submit(_with_inherited, fn, job, key)] = i

        for i, (job, key) in queue:
            submit(i, job, key)
            if len(pending) >= 2 * jobs:
                break
        while pending:
            done = _wait_some(pending)
            for fut in done:
                i = pending.pop(fut)
                yield i, fut.result()
                nxt = next(queue, None)
                if nxt is not None:
                    submit(nxt[0], *nxt[1])
    except BaseException:
        # Interrupted (Ctrl-C, SIGTERM) or abandoned: the running jobs are not waited for.
        _stop_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        _INHERITED.clear()


# Ctrl-C and SIGTERM are held while the pool's futures are waited for, at most this long at a
# time (see _wait_some).
_WAIT_SECONDS = 0.2


def _wait_some(pending) -> set:
    """The futures of ``pending`` done so far (at least one unless interrupted); a Ctrl-C
    or SIGTERM that comes meanwhile is raised after the wait, not inside it.

    ``concurrent.futures.wait`` takes every future's lock before it waits; a
    KeyboardInterrupt raised between two of those takes leaves the first ones held, and
    the pool's shutdown, which cancels the futures, then waits for them forever (a Ctrl-C
    of a ``--jobs 2`` run hung so, rarely, in tests/test_cli.py). The signals' handlers
    are swapped for ones that only note the signal, for one short wait at a time, and the
    noted one's own handler is run after it.
    """
    if threading.current_thread() is not threading.main_thread():
        return wait(pending, return_when=FIRST_COMPLETED)[0]  # signals reach the main one
    noted = []
    handlers = {sig: signal.signal(sig, lambda number, frame: noted.append((number, frame)))
                for sig in (signal.SIGINT, signal.SIGTERM)
                if signal.getsignal(sig) is not None}  # None: not Python's to restore
    try:
        done = set()
        while not done and not noted:
            done = wait(pending, timeout=_WAIT_SECONDS, return_when=FIRST_COMPLETED)[0]
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    for number, frame in noted[:1]:
        handler = handlers[number]
        if callable(handler):
            handler(number, frame)  # Ctrl-C's default handler raises KeyboardInterrupt
        elif handler == signal.SIG_DFL:
            signal.raise_signal(number)
    return done


# Workers are forked on Linux (as Python <= 3.13 does by default) so that the process
# that starts them is this one, the parent whose death they watch.
_CONTEXT = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None
#: Whether local worker processes are forked, and so inherit the shared parts of the jobs
#: (:func:`split_shared`) instead of receiving them pickled.
FORKED = _CONTEXT is not None
_PR_SET_PDEATHSIG = 1


def worker_start(parent: int, threads: int = 1) -> None:
    """Run in each worker process as it starts: it dies with its parent and leaves Ctrl-C
    and SIGTERM to it, and its BLAS and OpenMP thread pools hold ``threads`` threads.

    Without this, a parent killed with SIGKILL leaves its workers running under PID 1,
    holding the terminal or the pipe the parent wrote to (``bayesbench run | head`` would
    wait for them).
    """
    # Ctrl-C reaches the whole process group; the parent stops its workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The parent's own SIGTERM handler is inherited by fork; a worker just ends.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if not _kill_on_parent_death():
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # the parent died before the watch began
        os._exit(1)
    limit_threads(threads)


def _kill_on_parent_death() -> bool:
    """Ask Linux to send this process SIGKILL when its parent dies; False elsewhere."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    """Elsewhere, poll: a process whose parent died is adopted by another."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the pool's worker processes now, whatever they are running."""
    terminate = getattr(pool, "terminate_workers", None)  # Python >= 3.14
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


@contextmanager
def connected(scheduler, jobs: int | None = None, threads: int | None = None):
    """``scheduler`` as :func:`map_jobs` takes it, with an address replaced by a connected
    ``distributed.Client`` (closed on leaving), and :data:`LOCAL` by the client of a local
    cluster of ``jobs`` workers (:func:`local_cluster`; stopped on leaving, also on an error
    or Ctrl-C): connecting first lets a caller report an unreachable scheduler before it
    writes anything."""
    if scheduler == LOCAL:
        with local_cluster(jobs, threads) as client:
            yield client
        return
    if not isinstance(scheduler, str):
        yield scheduler
        return
    client = connect(scheduler)
    try:
        yield client
    finally:
        client.close()


def _distributed():
    """The ``distributed`` package, or a one-line error naming the extra that installs it."""
    try:
        import distributed  # lazy: optional (bayesbench[dask])
    except ImportError:
        raise BayesbenchError("running on a Dask scheduler needs Dask: "
                              "pip install 'bayesbench[dask]'") from None
    return distributed


@contextmanager
def local_cluster(jobs: int | None = None, threads: int | None = None):
    """A ``distributed.Client`` of a Dask cluster started on this machine: ``jobs`` worker
    processes (None: one per core) of one thread each, whose BLAS and OpenMP pools are
    limited to ``threads`` (None: the share of the cores a worker process of ``--jobs``
    gets, :func:`thread_share`) from the moment each starts, the scheduler listening on
    the loopback address only, no dashboard. The cluster and its workers are stopped on
    leaving, whatever the reason (the end of the run, an error, Ctrl-C)."""
    distributed = _distributed()
    jobs = jobs or default_jobs()
    limit = str(threads or thread_share(jobs))
    try:
        cluster = distributed.LocalCluster(
            n_workers=jobs, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=None, silence_logs=logging.CRITICAL, preload=[__name__],
            env={name: limit for name in THREAD_VARIABLES})
    except (OSError, TimeoutError) as exc:
        raise BayesbenchError(f"cannot start a local Dask cluster: {exc}") from None
    try:
        with distributed.Client(cluster) as client:
            yield client
    finally:
        cluster.close()


def dask_setup(worker) -> None:
    """Run by each worker of a :func:`local_cluster` as it starts (Dask's ``preload`` hook):
    it leaves Ctrl-C to this process, which stops the cluster, as :func:`worker_start` does
    for a worker process. The terminal sends Ctrl-C to the whole process group; a worker
    it ended would be started again by its nanny while the cluster is being stopped."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def connect(address: str):
    """A ``distributed.Client`` of the scheduler at ``address``; a missing Dask, an
    unreachable scheduler or a malformed address is a one-line error."""
    Client = _distributed().Client
    try:
        return Client(address, timeout="20s")
    except (OSError, TimeoutError) as exc:
        raise BayesbenchError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    except ValueError as exc:  # distributed's parser of a malformed address
        raise BayesbenchError(f"{address}: not a Dask scheduler address ({exc}); "
                              f"expected e.g. {ADDRESS_EXAMPLE}") from None


def _dask(fn, jobs_list, scheduler, jobs, threads) -> Iterator[tuple[int, object]]:
    with connected(scheduler, jobs, threads) as client:
        from distributed import as_completed  # lazy: optional; connected() checked it is there

        light, keys, shared = split_shared(jobs_list)
        shares = threads or _dask_shares(client)
        # Each shared part travels once to a worker that needs it, not with every job.
        parts = {key: client.scatter(part, hash=False) for key, part in shared.items()}
        readers = Counter(k for k in keys if k is not None)
        futures = [client.submit(_with_part, fn, job, parts.get(key), shares, pure=False)
                   for job, key in zip(light, keys)]
        index = {fut.key: i for i, fut in enumerate(futures)}
        for fut in as_completed(futures):
            i = index[fut.key]
            yield i, fut.result()
            fut.release()
            if keys[i] is not None:
                readers[keys[i]] -= 1
                if not readers[keys[i]]:  # its last job is done: free it on the workers
                    parts.pop(keys[i]).release()
