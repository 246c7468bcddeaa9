"""The load of a replayed sample's links, as `collnoise timeline ... --links FILE` writes it
(docs/timelines.md, "Link load"; outputs/link_load_io.hpp writes it in C++):

    from collnoise import read_link_load
    k = read_link_load("links.h5")            # or "links.json": the same keys, the same values
    k["link_name"][0], k["utilisation"][0]    # the busiest link, and the share it carried
    s = k["steps"][0]                          # its load over time: from s["times_ns"][i] on,
    s["messages"][i], s["rates"][i]            # that many messages, our flows' rates summed

Per link one of the sample's messages crossed (rows, busiest first: `ranking`):

    link                 int64 array: the link's number in its topology
    link_name            list of str: the topology's name of it ("S0 -> H1", "up: endpoint 3 ...")
    bytes_carried        int64 array: our messages' bytes across it
    busy_ns              float64 array: time with one of our messages on it, ns
    mean_messages        float64 array: time-weighted mean of the messages on it, background too
    max_messages         int64 array: the most messages on it (that held for a while)
    mean_rate, max_rate  float64 arrays: our flows' rates summed, bytes per ns (flows; else 0)
    bandwidth            float64 array: bytes per ns (1 under the simple model)
    utilisation          float64 array: exactly bytes_carried / (bandwidth x completion_ns)
    background_messages  int64 array: the background's messages on it, for the whole run

and, for the first rows (the busiest links, `timeline --top-links`), their change points as CSR
(`step_offsets`, `step_times_ns`, `step_messages`, `step_rates`), `step_end_ns` (the steps hold
until then: the completion, or where the bound cut them) and `steps_truncated`, gathered per link
in `steps` (a list of dicts: link, link_name, times_ns, messages, rates, end_ns, truncated).
Besides: `title`, `model`, `rule`, `ranking`, `completion_ns`, `format_version`. An HDF5 file's
checksum is checked first (as for results: DamagedFileError, `verify=False` skips it). A file
whose tables disagree (columns of unequal length, a utilisation that is not its bytes over
bandwidth x completion bit for bit, rows out of the ranking's order, steps that are not
increasing from 0, offsets that do not index them) is refused with DamagedFileError; one of
another kind with FormatError.
"""

from __future__ import annotations

from typing import Any

from .replay_files import (attribute_text as text, check_version, damaged as _damaged,
                           open_h5, read_json_doc, suffix_of)

FILETYPE = "collnoise link load"
FORMAT_VERSION = 1
TABLE = "link_table"
COUNTS = ("link", "bytes_carried", "max_messages", "background_messages")
NUMBERS = ("busy_ns", "mean_messages", "mean_rate", "max_rate", "bandwidth", "utilisation")
TEXTS = ("title", "model", "rule", "ranking")



def _table_problem(k: dict[str, Any]) -> str | None:
    """What is wrong with the per-link table, or None (outputs/link_load_io.cpp checks the
    same)."""
    rows = len(k["link"])
    for key in COUNTS + NUMBERS + ("link_name",):
        if len(k[key]) != rows:
            return f"its columns have {rows} and {len(k[key])} rows"
    completion = k["completion_ns"]
    if not isinstance(completion, float) or not completion >= 0.0:
        return f"completion_ns {completion!r} is not a time"
    for r in range(rows):
        link, carried = int(k["link"][r]), int(k["bytes_carried"][r])
        if r > 0:
            before = int(k["bytes_carried"][r - 1])
            if carried > before or (carried == before and link <= int(k["link"][r - 1])):
                return f"row {r} (link {link}) is out of the ranking's order"
        if not 0.0 <= k["busy_ns"][r] <= completion:
            return f"link {link} is busy {k['busy_ns'][r]} ns of a {completion} ns run"
        bandwidth = float(k["bandwidth"][r])
        # The writer's one division: the same bits.
        expected = carried / (bandwidth * completion) if completion > 0.0 else 0.0
        if not bandwidth > 0.0 or float(k["utilisation"][r]) != expected:
            return (f"link {link}'s utilisation {k['utilisation'][r]} is not its bytes over "
                    f"bandwidth x completion")
        if k["max_messages"][r] < k["background_messages"][r] or not k["mean_messages"][r] >= 0:
            return f"link {link}'s loads are below its background"
    return None


def _steps_problem(k: dict[str, Any]) -> str | None:
    """What is wrong with the traced links' steps, or None."""
    import numpy as np

    offsets, times = k["step_offsets"], k["step_times_ns"]
    traced = len(k["step_end_ns"])
    if traced > len(k["link"]) or len(k["steps_truncated"]) != traced or \
            len(offsets) != traced + 1:
        return (f"{traced} step ends, {len(k['steps_truncated'])} truncation flags and "
                f"{len(offsets)} offsets for {len(k['link'])} rows")
    if len(k["step_messages"]) != len(times) or len(k["step_rates"]) != len(times):
        return f"{len(times)} step times, {len(k['step_messages'])} loads, {len(k['step_rates'])} rates"
    if offsets[0] != 0 or offsets[-1] != len(times) or np.any(np.diff(offsets) < 0):
        return f"step offsets from {offsets[0]} to {offsets[-1]} for {len(times)} steps"
    for i in range(traced):
        t = times[offsets[i]:offsets[i + 1]]
        end, cut = float(k["step_end_ns"][i]), int(k["steps_truncated"][i])
        if len(t) > 0 and (t[0] != 0.0 or np.any(np.diff(t) <= 0) or not t[-1] < end):
            return f"link {k['link'][i]}'s steps are not increasing from 0 to {end} ns"
        if cut > 1 or (cut == 0 and end != k["completion_ns"]):
            return f"link {k['link'][i]}'s steps end at {end} ns, not at the completion"
        most = int(k["step_messages"][offsets[i]:offsets[i + 1]].max(initial=0))
        if cut == 0 and k["completion_ns"] > 0 and most != k["max_messages"][i]:
            return (f"link {k['link'][i]}'s steps reach {most} messages, its largest load says "
                    f"{k['max_messages'][i]}")
    return None


def _read_json(path: str) -> dict[str, Any]:
    import numpy as np

    doc = read_json_doc(path, FILETYPE, "link load")
    k = {key: doc.get(key) for key in TEXTS + ("format_version",)}
    try:
        k["completion_ns"] = float(doc["completion_ns"])
        for key in COUNTS:
            k[key] = np.asarray(doc[key], dtype=np.int64)
        for key in NUMBERS + ("step_end_ns",):
            k[key] = np.asarray(doc[key], dtype=np.float64)
        k["link_name"] = [str(name) for name in doc["link_name"]]
        k["steps_truncated"] = np.asarray(doc["steps_truncated"], dtype=np.int64)
        lists = [doc["step_times_ns"], doc["step_messages"], doc["step_rates"]]
        if len({len(x) for x in lists}) != 1 or any(
                len({len(x[i]) for x in lists}) != 1 for i in range(len(lists[0]))):
            raise ValueError("step lists of unequal lengths")
        k["step_offsets"] = np.concatenate(
            ([0], np.cumsum([len(t) for t in lists[0]], dtype=np.int64))).astype(np.int64)
        for key, values, dtype in (("step_times_ns", lists[0], np.float64),
                                   ("step_messages", lists[1], np.int64),
                                   ("step_rates", lists[2], np.float64)):
            k[key] = np.concatenate([np.asarray(v, dtype=dtype) for v in values] +
                                    [np.zeros(0, dtype=dtype)])
    except (KeyError, TypeError, ValueError) as error:
        raise _damaged(path, f"its lists are not a link table's ({error!r})") from error
    return k


def _read_h5(path: str, verify: bool) -> dict[str, Any]:
    import numpy as np

    with open_h5(path, verify, FILETYPE, "link load") as f:
        k = {key: text(f.attrs.get(key, b"")) for key in TEXTS}
        k["format_version"] = int(f.attrs.get("format_version", -1))
        k["completion_ns"] = float(f.attrs.get("completion_ns", -1.0))
        try:
            table = f[TABLE][()]
            for key in COUNTS:
                k[key] = np.asarray(table[key], dtype=np.int64)
            for key in NUMBERS:
                k[key] = np.asarray(table[key], dtype=np.float64)
            k["link_name"] = [text(name) for name in table["link_name"]]
            for key in ("step_offsets", "step_messages", "steps_truncated"):
                k[key] = np.asarray(f[key][()], dtype=np.int64)
            for key in ("step_times_ns", "step_rates", "step_end_ns"):
                k[key] = np.asarray(f[key][()], dtype=np.float64)
        except (KeyError, ValueError) as error:
            raise _damaged(path, f"it lacks a dataset or column ({error})") from error
    return k


def read_link_load(path, verify: bool = True) -> dict[str, Any]:
    """The link load of `path` (.json or .h5; the module's docstring lists the keys).
    DamagedFileError when the file is damaged (a checksum that does not match, JSON that does
    not parse, tables that disagree), FormatError when it is not such a file or of another
    format version, NotARegularFileError for a FIFO or a directory, OSError when it cannot be
    read."""
    path = str(path)
    extension = suffix_of(path, "link load")
    k = _read_h5(path, verify) if extension == ".h5" else _read_json(path)
    check_version(path, k["format_version"], FORMAT_VERSION)
    problem = _table_problem(k) or _steps_problem(k)
    if problem is not None:
        raise _damaged(path, f"its tables disagree: {problem}")
    offsets = k["step_offsets"]
    k["steps"] = [{"link": int(k["link"][i]), "link_name": k["link_name"][i],
                   "times_ns": k["step_times_ns"][offsets[i]:offsets[i + 1]],
                   "messages": k["step_messages"][offsets[i]:offsets[i + 1]],
                   "rates": k["step_rates"][offsets[i]:offsets[i + 1]],
                   "end_ns": float(k["step_end_ns"][i]),
                   "truncated": bool(k["steps_truncated"][i])}
                  for i in range(len(k["step_end_ns"]))]
    return k
