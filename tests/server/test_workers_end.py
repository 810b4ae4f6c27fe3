"""A server's computers' workers end at once when the server stops.

They think under SCHED_IDLE, so on a machine whose cores are busy a worker got almost no CPU
and took more than 20 s just to read the pool's "stop" and end; the server's exit waited for it
(Ctrl-C seemed to do nothing; seen in ``test_restart`` while benchmarks ran).  A worker busy
with a long search is the same case made exact: it does not read the stop either.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from concurrent.futures import ProcessPoolExecutor

from canasta_tui.server.server import end_workers


def think_long() -> None:
    time.sleep(3600)


def test_a_worker_that_does_not_read_the_stop_is_ended_at_once() -> None:
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    pool.submit(think_long)
    procs = list(pool._processes.values())    # the pool's own record of its workers
    assert procs
    deadline = time.monotonic() + 60
    while not all(p.is_alive() for p in procs) and time.monotonic() < deadline:
        time.sleep(0.05)
    # Without end_workers, shutdown(wait=True) waits out the hour's search: the stop must come
    # long before that (the wait is generous: the machine may be busy).
    stopped = threading.Event()

    def stop() -> None:
        end_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)
        stopped.set()
    threading.Thread(target=stop, daemon=True).start()
    try:
        assert stopped.wait(60), "the pool's shutdown waited for a worker that was still thinking"
        for p in procs:
            p.join(10)
            assert not p.is_alive()
    finally:
        for p in procs:                        # (a failed test leaves no worker sleeping for an hour)
            if p.is_alive():
                p.kill()
