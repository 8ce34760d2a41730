"""Where the work runs: in this process, in local worker processes, or on a Dask cluster.

Each executor maps a picklable function over a list of jobs and yields
``(index, result)`` pairs as jobs finish, in any order. Workers only compute;
the calling process is the only one that writes results, so a record is never
written twice or interleaved. The results do not depend on the executor: every
job carries its own seeds.
"""
from __future__ import annotations

import os
import re
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Callable, Iterator, Sequence

from ..errors import BayesbenchError


# A Dask scheduler address: an optional protocol, a host (an IPv6 one in brackets), a port.
_ADDRESS = re.compile(r"^(?:[a-z][a-z0-9+.-]*://)?(?:\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):\d+/?$")
ADDRESS_EXAMPLE = "tcp://scheduler-host:8786"


def address_problem(text: str) -> str | None:
    """None if ``text`` has the form of a Dask scheduler address, such as
    ``tcp://scheduler-host:8786`` (whether a scheduler listens there is another matter);
    else what is wrong with it."""
    if _ADDRESS.match(text):
        return None
    return f"'{text}' is not a Dask scheduler address; expected e.g. {ADDRESS_EXAMPLE}"


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def describe(jobs: int | None, scheduler) -> str:
    if scheduler is not None:
        return f"dask ({scheduler if isinstance(scheduler, str) else 'client'})"
    jobs = jobs or default_jobs()
    return "serial" if jobs == 1 else f"processes ({jobs})"


def execute(fn: Callable, jobs_list: Sequence, *, jobs: int | None = None,
            scheduler=None) -> Iterator[tuple[int, object]]:
    """Run ``fn`` on every job; yield ``(index, fn(job))`` as each finishes.

    ``scheduler`` (a Dask scheduler address such as ``tcp://host:6786``, or a
    ``distributed.Client``) selects Dask; otherwise ``jobs`` worker processes,
    or this process when ``jobs`` is 1 (``None``: all cores).
    """
    if scheduler is not None:
        yield from _dask(fn, jobs_list, scheduler)
        return
    jobs = jobs or default_jobs()
    if jobs == 1 or len(jobs_list) <= 1:
        for i, job in enumerate(jobs_list):
            yield i, fn(job)
        return
    yield from _processes(fn, jobs_list, jobs)


def _processes(fn, jobs_list, jobs) -> Iterator[tuple[int, object]]:
    # Keep only a bounded number of jobs in flight so that a long run does not
    # pickle every job up front, and an interrupted one stops quickly.
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(jobs_list)))
    try:
        pending, queue = {}, iter(enumerate(jobs_list))
        for i, job in queue:
            pending[pool.submit(fn, job)] = i
            if len(pending) >= 2 * jobs:
                break
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                i = pending.pop(fut)
                yield i, fut.result()
                nxt = next(queue, None)
                if nxt is not None:
                    pending[pool.submit(fn, nxt[1])] = nxt[0]
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _dask(fn, jobs_list, scheduler) -> Iterator[tuple[int, object]]:
    try:
        from distributed import Client, as_completed  # lazy: optional (bayesbench[dask])
    except ImportError:
        raise BayesbenchError("running on a Dask scheduler needs Dask: "
                              "pip install 'bayesbench[dask]'") from None
    own = isinstance(scheduler, str)
    if own:
        try:
            client = Client(scheduler, timeout="20s")
        except (OSError, TimeoutError) as exc:
            raise BayesbenchError(
                f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        except ValueError as exc:  # distributed's parser of a malformed address
            raise BayesbenchError(f"{scheduler}: not a Dask scheduler address ({exc}); "
                                  f"expected e.g. {ADDRESS_EXAMPLE}") from None
    else:
        client = scheduler
    try:
        futures = [client.submit(fn, job, pure=False) for job in jobs_list]
        index = {fut.key: i for i, fut in enumerate(futures)}
        for fut in as_completed(futures):
            yield index[fut.key], fut.result()
            fut.release()
    finally:
        if own:
            client.close()
