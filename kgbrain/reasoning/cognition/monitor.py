"""The resource monitor: this process's CPU/RAM use with hysteresis, deciding whether Ring 2 may run (seed 001).

Thresholds (Config.resources): the soft block (expensive actions unavailable) switches on at CPU >= 70 %
and off only at CPU <= 60 %; the hard block (no Ring 2) switches on at CPU or RAM >= 85 % and off only
when both are <= 75 %. The gaps keep the state from flapping when the load hovers near a threshold.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

import psutil  # type: ignore[import-untyped]

from kgbrain.config import ResourceConfig

# (cpu percent, ram percent); injectable so tests can drive the monitor through a load profile.
Sampler = Callable[[], tuple[float, float]]


@dataclass(frozen=True, slots=True)
class ResourceState:
    """One reading of the machine's load and what it allows (seed 001 ResourceState)."""

    cpu_pct: float = 0.0
    ram_pct: float = 0.0
    ring2_allowed: bool = True
    soft_blocked: bool = False
    available_threads: int = 1
    ram_mb: float = 0.0  # this process's resident memory, for the digest


class PsutilSampler:
    """This process's own CPU use since the previous reading (share of the cores it may run on) and its own
    memory (resident set, share of the machine's RAM), in percent.

    The budget is the process's, not the host's: other programs on a shared machine (a build, another
    service) must not change which work a question gets, and the same question must get the same answer on a
    busy and an idle machine. The first reading has no interval to measure and reports 0 %.
    """

    def __init__(self) -> None:
        """Start the measuring interval now."""
        self._me = psutil.Process()
        affinity = getattr(self._me, "cpu_affinity", None)
        cores = len(affinity()) if affinity is not None else psutil.cpu_count()
        self._cores = max(1, cores or 1)
        self._total = float(psutil.virtual_memory().total) or 1.0
        self._me.cpu_percent(interval=None)

    def __call__(self) -> tuple[float, float]:
        """(cpu %, ram %)."""
        cpu = min(100.0, self._me.cpu_percent(interval=None) / self._cores)
        ram = 100.0 * float(self._me.memory_info().rss) / self._total
        return cpu, ram


class ResourceMonitor:
    """Turns load readings into a ResourceState, remembering the previous state for hysteresis."""

    def __init__(self, config: ResourceConfig | None = None, sampler: Sampler | None = None) -> None:
        """Read the load with `sampler` (psutil by default) against `config`'s thresholds."""
        self.config = config or ResourceConfig()
        self._sampler = sampler or PsutilSampler()
        self._soft = False
        self._hard = False

    def update(self, cpu_pct: float, ram_pct: float) -> ResourceState:
        """Apply one reading and return the resulting state."""
        c = self.config
        if self._soft:
            self._soft = cpu_pct > c.soft_off
        else:
            self._soft = cpu_pct >= c.soft_on
        if self._hard:
            self._hard = not (cpu_pct <= c.hard_off and ram_pct <= c.hard_off)
        else:
            self._hard = cpu_pct >= c.hard_on or ram_pct >= c.hard_on
        threads = os.cpu_count() or 1
        free = max(0, round(threads * (1.0 - cpu_pct / 100.0)))
        return ResourceState(
            cpu_pct=cpu_pct,
            ram_pct=ram_pct,
            ring2_allowed=not self._hard,
            soft_blocked=self._soft,
            available_threads=0 if self._hard else max(1, free),
            ram_mb=_process_rss_mb(),
        )

    def sample(self) -> ResourceState:
        """Read the machine's load now."""
        cpu, ram = self._sampler()
        return self.update(cpu, ram)


_ME: list[psutil.Process] = []  # psutil.Process() reads /proc on creation: made once per process


def _process_rss_mb() -> float:
    if not _ME or _ME[0].pid != os.getpid():  # (a forked worker is another process)
        _ME[:] = [psutil.Process()]
    return float(_ME[0].memory_info().rss) / 2**20
