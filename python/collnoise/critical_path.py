"""Where each point's critical path spent its time (docs/python.md, "Why a sample is late").

A schedule point run with `[output] critical_path = true` carries, beside its completion time,
the mean time its samples' critical paths spent in each category of work (`path_<c>_mean`, with
its interval, its noiseless value and the excess over it), the noise charged to all the sample's
operations (`noise_charged_mean`), the share of it absorbed off the critical path
(`absorption_ratio`), the path's noise by step (`path_noise_by_step`) and the ranks most often
last (`last_rank_top`, `last_rank_share`); docs/reference/summary-fields.md lists them.
`attribution(result)` gathers them into two DataFrames. Points without these fields (other
kinds, or runs without critical paths) are left out. Points on a shared network
(`network.contention`) have a seventh category, "network" (a message's time in the network
after its arrival); others, and files written before it, have the first six.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import pandas as pd

from . import fields
from .result import Result, load

#: The categories of a critical path's time, in the order they are stacked; a point's means add
#: up to its mean completion time.
CATEGORIES = ("calc", "overhead", "gap", "wire", "noise", "rendezvous", "network")
#: The category only points on a shared network (network.contention) have.
NETWORK_CATEGORY = "network"
#: The categories every point with an attribution has.
BASE_CATEGORIES = tuple(c for c in CATEGORIES if c != NETWORK_CATEGORY)
#: What each category holds (docs/reference/summary-fields.md).
CATEGORY_NAMES = {"calc": "computation (calc)", "overhead": "CPU overhead (o, O)",
                  "gap": "NIC gap (g, G)", "wire": "wire latency (L)", "noise": "noise",
                  "rendezvous": "rendezvous wait", "network": "shared network"}
# The per-category columns, as `path_<category>_<statistic>` in the points table.
STATISTICS = (fields.MEAN.mean, fields.MEAN.ci_low, fields.MEAN.ci_high, "noiseless", "excess")
# The per-point scalars, as in the points table.
POINT_COLUMNS = (fields.completion_mean, fields.noiseless_completion, fields.noise_charged_mean,
                 fields.noise_charged_ci_low, fields.noise_charged_ci_high, fields.absorption_ratio,
                 fields.absorption_ratio_ci_low, fields.absorption_ratio_ci_high,
                 fields.path_steps_per_bucket, fields.last_rank_range)
# The per-point lists, from the point groups.
POINT_LISTS = (fields.path_noise_by_step, fields.last_rank_top, fields.last_rank_share)
# Counts and ranks, held as integers.
INTEGERS = {fields.path_steps_per_bucket, fields.last_rank_range, fields.last_rank_top}


class Attribution(NamedTuple):
    """`categories`: one row per point and category it has (the network's only on a shared
    network): `point`, the parameters, `category` and
    `mean`, `ci_low`, `ci_high`, `noiseless`, `excess` (seconds). `points`: one row per point:
    `point`, the parameters, the POINT_COLUMNS (NaN where null: `absorption_ratio` when no noise
    was charged; the counts `path_steps_per_bucket` and `last_rank_range` as Int64) and the
    POINT_LISTS as Python lists (seconds and shares as float, ranks as int)."""

    categories: pd.DataFrame
    points: pd.DataFrame


def attribution_rows(result: Result) -> list[int]:
    """The rows (points) of a result that carry the critical path's attribution: those whose
    `path_<category>_mean` of the BASE_CATEGORIES are all numbers."""
    columns = [f"path_{c}_{fields.MEAN.mean}" for c in BASE_CATEGORIES]
    if not set(columns) <= set(result.points.columns):
        return []
    values = result.points[columns].apply(pd.to_numeric, errors="coerce")
    return [int(i) for i in values.index[values.notna().all(axis=1)]]


def parameter_columns(result: Result, rows: list[int]) -> list[str]:
    """The parameters that tell these points apart (the swept keys and the cases' keys), and
    collective.N, in the points table's order."""
    frame = result.points.loc[rows]
    keep = []
    for key in result.points.columns:
        if result.sources.get(key) != "params" or key.endswith("_string"):
            continue
        if key == "collective.N" or frame[key].nunique(dropna=False) > 1:
            keep.append(key)
    return keep


def _as_list(values: list[Any] | None, kind: type = float) -> list[Any]:
    """A stored list as Python values of `kind`, None where an entry is null."""
    if values is None:
        return []
    if not isinstance(values, list):
        values = [values]
    return [None if v is None or (isinstance(v, float) and math.isnan(v)) else kind(v)
            for v in values]


def attribution(result: Result | str) -> Attribution:
    """The critical path's attribution of every point that has one, as two DataFrames (see
    Attribution); both are empty (with their columns) when no point has one. `result` is a
    Result or a path, read with collnoise.load (its checksum checked: DamagedFileError for a
    damaged file)."""
    if not isinstance(result, Result):
        result = load(result)
    rows = attribution_rows(result)
    params = parameter_columns(result, rows) if rows else []
    table = result.points
    categories, points = [], []
    for row in rows:
        ident = {"point": int(table.at[row, "point"]) if "point" in table else row,
                 **{k: table.at[row, k] for k in params}}
        for c in categories_of(result, row):
            categories.append({**ident, "category": c,
                               **{s: _number(table, row, f"path_{c}_{s}") for s in STATISTICS}})
        summary = result.point(row).summary
        points.append({**ident, **{k: _number(table, row, k) for k in POINT_COLUMNS},
                       **{k: _as_list(summary.get(k), int if k in INTEGERS else float)
                          for k in POINT_LISTS}})
    category_columns = ["point", *params, "category", *STATISTICS]
    point_columns = ["point", *params, *POINT_COLUMNS, *POINT_LISTS]
    by_point = pd.DataFrame(points, columns=point_columns)
    for key in INTEGERS & set(POINT_COLUMNS):
        by_point[key] = by_point[key].astype("Int64")  # counts; <NA> where null
    return Attribution(pd.DataFrame(categories, columns=category_columns), by_point)


def categories_of(result: Result, row: int) -> tuple[str, ...]:
    """The categories point `row` has: the BASE_CATEGORIES, and the network's where its mean is
    a number (a point on a shared network)."""
    network = _number(result.points, row, f"path_{NETWORK_CATEGORY}_{fields.MEAN.mean}")
    return CATEGORIES if not math.isnan(network) else BASE_CATEGORIES


def _number(table: pd.DataFrame, row: int, key: str) -> float:
    if key not in table.columns:
        return math.nan
    value = pd.to_numeric(table.at[row, key], errors="coerce")
    return float(value) if pd.notna(value) else math.nan


def _attribution_method(self: Result) -> Attribution:
    """Where the critical path's time went, per point and category, and the noise absorbed
    off it, per point: collnoise.attribution(self) (collnoise.critical_path)."""
    return attribution(self)


# result.attribution(): attached to Result here, with the analysis, so that collnoise.result
# imports no module above it (the layers: collnoise/__init__.py, which imports this module).
_attribution_method.__name__ = "attribution"
_attribution_method.__qualname__ = "Result.attribution"
Result.attribution = _attribution_method
