#!/usr/bin/env python3
"""Collates the `RATIO <workload> <label> <value>` lines that the interleaved benchmarks print
(benches/interleaved_loops.rs, benches/checkpoint.rs, benches/checkpoint_long.rs) over several
runs: for each workload and ratio, the range over the runs and the number of runs.

    for i in 1 2 3; do cargo bench --bench interleaved_loops; done | scripts/ratio_ranges.py
"""
import sys

ranges = {}
for line in sys.stdin:
    fields = line.split()
    if len(fields) == 4 and fields[0] == "RATIO":
        _, workload, label, value = fields
        ranges.setdefault((workload, label), []).append(float(value))

for (workload, label), values in ranges.items():
    low, high = min(values), max(values)
    span = f"{low:.2f}" if f"{low:.2f}" == f"{high:.2f}" else f"{low:.2f}–{high:.2f}"
    print(f"{workload} | {label} | {span} | {len(values)} runs")
