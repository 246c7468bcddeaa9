"""Match-queue statistics of a replayed sample, as `collnoise timeline ... --queues FILE` writes
them (docs/timelines.md, "Match-queue statistics"; outputs/queue_stats_io.hpp writes them in C++):

    from collnoise import read_queue_stats
    q = read_queue_stats("queues.h5")          # or "queues.json": the same keys, the same values
    q["posted_mean"], q["posted_max"]          # numpy arrays, one value per rank
    q["unexpected_histogram"][3]               # rank 3: samples at unexpected length 0, 1, ...

Per rank, the posted-receive queue's length is sampled at each message the rank takes in, the
unexpected-message queue's at each receive it posts, both before the search (LogGOPSim's --qstat
rule, `q["rule"]`). The keys, for PREFIX `posted` and `unexpected`:

    PREFIX_samples            int64 array, per rank: how many samples
    PREFIX_mean               float64 array, per rank (0 without samples)
    PREFIX_max                int64 array, per rank (0 without samples)
    PREFIX_histogram          list of int64 arrays, per rank: counts at lengths 0..max
    PREFIX_histogram_offsets  int64 array, ranks + 1: the CSR offsets into ...
    PREFIX_histogram_counts   int64 array: every rank's histogram end to end

and `title`, `rule`, `ranks`, `format_version`. An HDF5 file's checksum is checked first (as for
results: DamagedFileError, `verify=False` skips it). A file whose tables disagree (a histogram
whose sum is not its rank's samples, whose length is not its max + 1, a mean that is not its
histogram's, bit for bit) is refused with DamagedFileError; one of another kind with
FormatError.
"""

from __future__ import annotations

from typing import Any

from .replay_files import (attribute_text as text, check_version, damaged as _damaged,
                           open_h5, read_json_doc, suffix_of)

FILETYPE = "collnoise queue statistics"
FORMAT_VERSION = 1
QUEUES = ("posted", "unexpected")



def _histograms(offsets, counts) -> list:
    return [counts[offsets[r]:offsets[r + 1]] for r in range(len(offsets) - 1)]


def _problem(q: dict[str, Any], prefix: str, ranks: int) -> str | None:
    """What is wrong with one queue's tables, or None (outputs/queue_stats_io.cpp checks the
    same)."""
    import numpy as np

    samples, mean, largest = (q[f"{prefix}_{k}"] for k in ("samples", "mean", "max"))
    offsets, counts = q[f"{prefix}_histogram_offsets"], q[f"{prefix}_histogram_counts"]
    if not (len(samples) == len(mean) == len(largest) == ranks and len(offsets) == ranks + 1):
        return (f"{len(samples)} samples, {len(mean)} means, {len(largest)} maxima and "
                f"{len(offsets)} offsets for {ranks} ranks")
    if offsets[0] != 0 or offsets[-1] != len(counts) or np.any(np.diff(offsets) < 0) or \
            np.any(counts < 0):
        return f"histogram offsets from {offsets[0]} to {offsets[-1]} for {len(counts)} counts"
    for r, h in enumerate(_histograms(offsets, counts)):
        n = int(h.sum())
        if n != samples[r]:
            return f"rank {r}'s histogram counts {n} samples, its samples say {samples[r]}"
        if largest[r] != max(len(h) - 1, 0) or (len(h) > 0 and h[-1] == 0):
            return f"rank {r}'s histogram has {len(h)} lengths, its max is {largest[r]}"
        # The writer's exact integer sum and one division: the same bits.
        expected = int((h * np.arange(len(h))).sum()) / n if n else 0.0
        if float(mean[r]) != expected:
            return f"rank {r}'s mean {mean[r]} is not its histogram's {expected}"
    return None


def _read_json(path: str) -> dict[str, Any]:
    import numpy as np

    doc = read_json_doc(path, FILETYPE, "queue statistics")
    q = {k: doc.get(k) for k in ("title", "rule", "ranks", "format_version")}
    try:
        for prefix in QUEUES:
            histograms = [np.asarray(h, dtype=np.int64) for h in doc[f"{prefix}_histogram"]]
            q[f"{prefix}_samples"] = np.asarray(doc[f"{prefix}_samples"], dtype=np.int64)
            q[f"{prefix}_mean"] = np.asarray(doc[f"{prefix}_mean"], dtype=np.float64)
            q[f"{prefix}_max"] = np.asarray(doc[f"{prefix}_max"], dtype=np.int64)
            q[f"{prefix}_histogram_offsets"] = np.concatenate(
                ([0], np.cumsum([len(h) for h in histograms], dtype=np.int64))).astype(np.int64)
            q[f"{prefix}_histogram_counts"] = np.concatenate(
                histograms + [np.zeros(0, dtype=np.int64)])
    except (KeyError, TypeError, ValueError) as error:
        raise _damaged(path, f"its lists are not a queue table's ({error!r})") from error
    return q


def _read_h5(path: str, verify: bool) -> dict[str, Any]:
    import numpy as np

    with open_h5(path, verify, FILETYPE, "queue statistics") as f:
        q = {"title": text(f.attrs.get("title", b"")), "rule": text(f.attrs.get("rule", b"")),
             "ranks": int(f.attrs.get("ranks", -1)),
             "format_version": int(f.attrs.get("format_version", -1))}
        try:
            for prefix in QUEUES:
                for key in ("samples", "max", "histogram_offsets", "histogram_counts"):
                    q[f"{prefix}_{key}"] = np.asarray(f[f"{prefix}_{key}"][()], dtype=np.int64)
                q[f"{prefix}_mean"] = np.asarray(f[f"{prefix}_mean"][()], dtype=np.float64)
        except KeyError as error:
            raise _damaged(path, f"it lacks a dataset ({error})") from error
    return q


def read_queue_stats(path, verify: bool = True) -> dict[str, Any]:
    """The match-queue statistics of `path` (.json or .h5; the module's docstring lists the
    keys). DamagedFileError when the file is damaged (a checksum that does not match, JSON that
    does not parse, tables that disagree), FormatError when it is not such a file or of another
    format version, NotARegularFileError for a FIFO or a directory, OSError when it cannot be
    read."""
    path = str(path)
    extension = suffix_of(path, "queue statistics")
    q = _read_h5(path, verify) if extension == ".h5" else _read_json(path)
    check_version(path, q["format_version"], FORMAT_VERSION)
    if not isinstance(q["ranks"], int) or q["ranks"] < 0:
        raise _damaged(path, f"its rank count {q['ranks']!r} is not a count")
    for prefix in QUEUES:
        problem = _problem(q, prefix, q["ranks"])
        if problem is not None:
            raise _damaged(path, f"its {prefix} queues disagree: {problem}")
        q[f"{prefix}_histogram"] = _histograms(q[f"{prefix}_histogram_offsets"],
                                               q[f"{prefix}_histogram_counts"])
    return q
