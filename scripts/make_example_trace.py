#!/usr/bin/env python3
"""Writes runs/data/example-trace.txt: a small synthetic detour trace in the format Netgauge's
noise benchmark writes (ng_osnoise.out; docs/models/netgauge-files.md), for the trace-replay run
files to work out of the box. Not a measurement: a 1 kHz timer tick of 2 to 4 us, a daemon
waking every 10 ms for 30 to 60 us, and a rare 500 us interruption, over 100 ms, seeded so the
file never changes. Point the run file at a measured ng_osnoise.out instead for real answers.

    python3 scripts/make_example_trace.py > runs/data/example-trace.txt
"""
import random

rng = random.Random(2026)
SPAN_NS = 100_000_000
detours = []
for tick in range(0, SPAN_NS, 1_000_000):
    detours.append((tick + rng.randint(0, 2_000), rng.randint(2_000, 4_000)))
for wake in range(3_000_000, SPAN_NS, 10_000_000):
    detours.append((wake + rng.randint(0, 500_000), rng.randint(30_000, 60_000)))
detours.append((57_300_000, 500_000))
detours.sort()
# Merge overlaps, as a measured trace never holds two detours at once.
merged = []
for start, length in detours:
    if merged and start < merged[-1][0] + merged[-1][1]:
        last_start, last_length = merged[-1]
        merged[-1] = (last_start, max(last_length, start + length - last_start))
    else:
        merged.append((start, length))
print("# synthetic detour trace for collnoise's examples (scripts/make_example_trace.py)")
print("# start_ns\tduration_ns")
for start, length in merged:
    print(f"{start}\t{length}")
