"""Resource monitor hysteresis (seed 001): soft 70 on / 60 off; hard 85 on / 75 off (CPU and RAM)."""

from __future__ import annotations

from kgbrain.config import ResourceConfig
from kgbrain.reasoning.cognition.monitor import PsutilSampler, ResourceMonitor


def run(readings: list[tuple[float, float]]) -> list[tuple[bool, bool]]:
    m = ResourceMonitor(ResourceConfig(), sampler=lambda: (0.0, 0.0))
    return [(s.soft_blocked, s.ring2_allowed) for s in (m.update(c, r) for c, r in readings)]


def test_soft_block_switches_on_at_70_and_off_only_at_60() -> None:
    cpu = [65, 70, 65, 61, 60, 69, 70]
    assert [soft for soft, _ in run([(c, 10) for c in cpu])] == [False, True, True, True, False, False, True]


def test_hard_block_switches_on_at_85_and_off_only_at_75() -> None:
    cpu = [80, 85, 80, 76, 75, 84]
    assert [ring2 for _, ring2 in run([(c, 10) for c in cpu])] == [True, False, False, False, True, True]


def test_ram_alone_blocks_and_both_must_fall_to_lift_it() -> None:
    readings = [(10, 85), (10, 80), (10, 75), (80, 70), (75, 70)]
    assert [ring2 for _, ring2 in run(readings)] == [False, False, True, True, True]
    readings = [(90, 10), (70, 80), (70, 75)]
    assert [ring2 for _, ring2 in run(readings)] == [False, False, True]


def test_a_hard_blocked_state_has_no_threads_for_ring_2() -> None:
    m = ResourceMonitor(sampler=lambda: (90.0, 10.0))
    s = m.sample()
    assert not s.ring2_allowed
    assert s.soft_blocked
    assert s.available_threads == 0
    assert s.ram_mb > 0


def test_psutil_sampler_reads_percentages() -> None:
    cpu, ram = PsutilSampler()()
    assert 0.0 <= cpu <= 100.0
    assert 0.0 < ram <= 100.0  # this process holds some memory
