#!/usr/bin/env python3
"""Fails when an #include points upward between collnoise's layers (docs/extending.md, "Layers").

    scripts/check_layers.py [ROOT]

Each folder may include only its own files and the folders below it:

    core/           the ground: streams and keys, errors, stop requests, parallel loops, rank
                    counts, parameters, records, processes (imports nothing of ours)
    distributions/  noise laws and time-based noise           -> core
    estimators/     tallies, intervals, histograms            -> core
    engine/         collective models, samplers, their theory -> core, distributions, estimators
    outputs/        HDF5 and files, reports of records        -> core, estimators
    runs/           run files, sweeps, execution               -> all of the above
    app/            the command line                           -> everything

A sub-folder belongs to its top folder's layer: the rooms of engine/schedules/ (schedule/, goal/,
algorithms/, engine/, paths/) include each other's headers, and none reaches above engine/.

tests/ and bench/ may include anything. Exit 1 with one line per upward include.
"""
import os
import re
import sys

ALLOWED = {
    "core": {"core"},
    "distributions": {"core", "distributions"},
    "estimators": {"core", "estimators"},
    "engine": {"core", "distributions", "estimators", "engine"},
    "outputs": {"core", "estimators", "outputs"},
    "runs": {"core", "distributions", "estimators", "engine", "outputs", "runs"},
    "app": {"core", "distributions", "estimators", "engine", "outputs", "runs", "app"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    bad = []
    for layer, allowed in ALLOWED.items():
        for folder, _, names in os.walk(os.path.join(root, layer)):
            for name in sorted(names):
                if not name.endswith((".hpp", ".cpp")):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m or "/" not in m.group(1):
                            continue  # generated headers (collnoise_version.hpp) sit at the top
                        target = m.group(1).split("/")[0]
                        if target in ALLOWED and target not in allowed:
                            bad.append(f"{os.path.relpath(path, root)}:{number}: {layer}/ "
                                       f"includes {m.group(1)} ({target}/ is above it)")
    for line in bad:
        print(line)
    if bad:
        print(f"{len(bad)} upward include(s): see scripts/check_layers.py for the layers")
        return 1
    print("layers: every include points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
