#!/usr/bin/env python3
"""Writes a synthetic detour trace for the noisy GOAL benchmark (bench/noisy_goal.sh): detours of
10 to 100 us about every millisecond (a period of 1 ms with +-100 us of jitter), over one second,
seeded so the file never changes. Format: Netgauge's ng_osnoise.out (start<TAB>duration in ns;
docs/models/netgauge-files.md), read by `law = "trace"`.

    python3 bench/detour_trace.py > /tmp/detours.txt
"""
import random

rng = random.Random(20261127)
SPAN_NS = 1_000_000_000
PERIOD_NS = 1_000_000
print("# synthetic detour trace: 10-100 us about every 1 ms (bench/detour_trace.py)")
print("# start_ns\tduration_ns")
for tick in range(PERIOD_NS // 2, SPAN_NS - PERIOD_NS, PERIOD_NS):
    print(f"{tick + rng.randint(-100_000, 100_000)}\t{rng.randint(10_000, 100_000)}")
