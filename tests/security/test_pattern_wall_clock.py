"""A user's pattern is bounded by the clock, not by CPU time (issue #22): the `regex` engine's own timeout counts
CPU seconds, which a loaded machine hands out slowly, so a 1 s limit ran for many seconds of wall time and the next
read waited past its own timeout. Here the process doing the match gets a tenth of the time (stopped with SIGSTOP
nine tenths of it): the match must still give up about 1 s after it began, by the clock. And while it matches,
another thread of the process runs (the engine held the GIL for the whole match)."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time

import pytest

from kgbrain.errors import ReadTimeout
from kgbrain.patterns import request_deadline, search

BACKTRACKS = ("(a|aa)+$", "a" * 60 + "b")  # seconds to minutes of backtracking on the `regex` engine

CHILD = """
import sys, time
from kgbrain.errors import ReadTimeout
from kgbrain.patterns import request_deadline, search
sys.stdout.write("ready\\n"); sys.stdout.flush()
started = time.monotonic()
try:
    with request_deadline(started + 1.0):
        search(sys.argv[1], sys.argv[2])
except ReadTimeout:
    pass
sys.stdout.write(f"{time.monotonic() - started:.3f}\\n"); sys.stdout.flush()
"""


@pytest.mark.slow
def test_a_pattern_stops_at_its_deadline_by_the_clock_on_a_starved_process() -> None:
    child = subprocess.Popen([sys.executable, "-c", CHILD, *BACKTRACKS], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "ready\n"
        out: list[str] = []
        reader = threading.Thread(target=lambda: out.append(child.stdout.readline() if child.stdout else ""))
        reader.start()
        began = time.monotonic()
        while reader.is_alive() and time.monotonic() - began < 120:
            child.send_signal(signal.SIGSTOP)
            time.sleep(0.09)
            child.send_signal(signal.SIGCONT)
            time.sleep(0.01)
        reader.join(timeout=5)
        took = float(out[0])
        # A tenth of the time: CPU-counted, 1 s of matching took about 10 s (and far more under load).
        assert took < 4.0, took
    finally:
        child.send_signal(signal.SIGCONT)
        child.kill()
        child.wait(timeout=30)
        if child.stdout is not None:
            child.stdout.close()


def test_other_threads_run_while_a_pattern_backtracks() -> None:
    gaps: list[float] = []
    stop = threading.Event()

    def tick() -> None:
        last = time.monotonic()
        while not stop.is_set():
            time.sleep(0.01)
            now = time.monotonic()
            gaps.append(now - last)
            last = now

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        time.sleep(0.05)
        with pytest.raises(ReadTimeout), request_deadline(time.monotonic() + 1.5):
            search(*BACKTRACKS)
    finally:
        stop.set()
        ticker.join()
    assert max(gaps) < 1.0, max(gaps)  # (the engine holding the GIL: one gap of the whole match)
