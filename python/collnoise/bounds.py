"""The bounds a run file writes (`[[bound]]` tables, docs/bounds.md), held against each point's
estimate (docs/python.md, "Bounds a user writes").

Every sampled point of a run with bounds carries, per bound i (from 1, in the run file's order),
`bound_<i>_name`, `_statistic`, `_relation`, `_value`, `_estimate`, `_ci_low`, `_ci_high`,
`_ci_method`, `_level`, `_level_method`, `_verdict`, `_verdict_adjusted` and `_distance`
(docs/reference/summary-fields.md). `bounds(result)` gathers them into one DataFrame, one row per
point and bound. The model's own `bound_lower` and `bound_upper` are not user bounds and stay out.
"""

from __future__ import annotations

import math
import re

import pandas as pd

from . import fields
from .result import BOUND_FIELDS, BOUND_TEXT_FIELDS, Result, load

#: The verdicts, in the order figures list them (docs/bounds.md, "Verdicts").
VERDICTS = ("holds", "violated", "undecided")
#: The per-bound fields, as `bound_<i>_<field>` in the points table, in the frame's order.
FIELDS = BOUND_FIELDS
# Fields holding text; the others are numbers (NaN where null).
TEXT_FIELDS = BOUND_TEXT_FIELDS

_NAME_COLUMN = re.compile(r"^bound_(\d+)_name$")


def bound_indices(result: Result) -> list[int]:
    """The i of every `bound_<i>_name` column of the points table, in increasing order."""
    found = (_NAME_COLUMN.match(c) for c in result.points.columns)
    return sorted(int(m.group(1)) for m in found if m)


def bounded_rows(result: Result) -> list[int]:
    """The rows (points) that hold at least one bound: those with a `bound_<i>_name`."""
    names = [fields.bound(i, fields.BOUND.name) for i in bound_indices(result)]
    if not names:
        return []
    held = result.points[names].notna().any(axis=1)
    return [int(r) for r in held.index[held]]


def varying_parameters(result: Result, rows: list[int]) -> list[str]:
    """The parameters whose values differ between these points, in the points table's order."""
    frame = result.table.loc[rows]
    return [key for key in result.table.columns
            if result.sources.get(key) == "params" and not key.endswith("_string")
            and frame[key].nunique(dropna=False) > 1]


def bounds(result: Result | str) -> pd.DataFrame:
    """Every point's user bounds as a DataFrame: one row per point and bound, with the columns
    `point`, the parameters that vary between the points holding bounds, `bound` (i, from 1),
    then FIELDS (`value`, `estimate`, `ci_low`, `ci_high` in the primary metric's unit; `level` a
    fraction; `verdict` and `verdict_adjusted` "holds", "violated" or "undecided", NaN where the
    bound's value is not a number; `distance` = (estimate - value) / |value|). Points without
    bounds have no rows; a result without any gives an empty frame with these columns.
    `result` is a Result or a path, read with collnoise.load (its checksum checked)."""
    if not isinstance(result, Result):
        result = load(result)
    if result.bound_table is not None:
        return _from_bound_table(result)
    rows = bounded_rows(result)
    params = varying_parameters(result, rows) if rows else []
    table = result.points
    out = []
    for row in rows:
        ident = {"point": int(table.at[row, "point"]) if "point" in table else row,
                 **{k: table.at[row, k] for k in params}}
        for i in bound_indices(result):
            if not _present(table, row, fields.bound(i, fields.BOUND.name)):
                continue
            out.append({**ident, "bound": i,
                        **{f: _value(table, row, fields.bound(i, f), f in TEXT_FIELDS)
                           for f in FIELDS}})
    return pd.DataFrame(out, columns=["point", *params, "bound", *FIELDS])


def _from_bound_table(result: Result) -> pd.DataFrame:
    """bounds(result) from the file's bounds table (`/points_bounds`): already a row per point
    and bound."""
    table = result.bound_table
    rows = sorted(int(p) for p in table["point"].unique())
    params = varying_parameters(result, rows) if rows else []
    frame = table[["point", "bound", *FIELDS]].copy()
    for at, key in enumerate(params):
        frame.insert(1 + at, key, result.table[key].to_numpy()[frame["point"].to_numpy()])
    for field in TEXT_FIELDS:
        frame[field] = [v if isinstance(v, str) else math.nan for v in frame[field]]
    return frame.reset_index(drop=True)


def claim(statistic: str, relation: str, right: str, tolerance: float | None = None) -> str:
    """A bound's claim as text: "mean >= <right>", with its tolerance for "=="."""
    text = f"{statistic} {relation} {right}"
    if relation == "==" and tolerance:
        text += f" (tolerance {tolerance:g})"
    return text


def expressions(result: Result) -> dict[str, dict]:
    """The run file's [[bound]] tables by name (expression, tolerance, ...), from the run file
    stored in the result; empty when it has none or cannot be read."""
    try:
        tables = result.run_file().get("bound", [])
    except ValueError:  # a run file the parser refuses: the figures do without its expressions
        return {}
    return {t["name"]: t for t in tables if isinstance(t, dict) and "name" in t}


def _present(table: pd.DataFrame, row: int, key: str) -> bool:
    return key in table.columns and pd.notna(table.at[row, key])


def _value(table: pd.DataFrame, row: int, key: str, text: bool):
    if key not in table.columns:
        return math.nan
    value = table.at[row, key]
    if text:
        return str(value) if pd.notna(value) else math.nan
    value = pd.to_numeric(value, errors="coerce")
    return float(value) if pd.notna(value) else math.nan


def _bounds_method(self: Result) -> pd.DataFrame:
    """The run file's [[bound]]s held against each point's estimate, a row per point and
    bound: collnoise.bounds(self) (collnoise.bounds, docs/bounds.md)."""
    return bounds(self)


# result.bounds(): attached to Result here, with the analysis, so that collnoise.result imports
# no module above it (the layers: collnoise/__init__.py, which imports this module).
_bounds_method.__name__ = "bounds"
_bounds_method.__qualname__ = "Result.bounds"
Result.bounds = _bounds_method
