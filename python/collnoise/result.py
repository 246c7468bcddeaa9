"""Reading a collnoise result file (HDF5; the layout is docs/hdf5-layout.md).

The points table (`/points_table`) becomes `Result.points`, a pandas DataFrame with one row per
point; the point groups (`/points/NNNN`) stay the record of what the table cannot hold: the
reason a value is null, lists (curves such as `W` or `conventional_T`), histograms, tallies and
the model's plot hints. They are read when first asked for.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from typing import Any

import h5py
import numpy as np
import pandas as pd

from . import fields
from .errors import DamagedFileError, FormatError, NotARegularFileError  # noqa: F401
from .errors import UnsealedFileWarning  # noqa: F401
from .histogram import Histogram
from .seal import require_regular
from .seal import verify as verify_seal

FILETYPE = "collnoise-result"
FORMAT_VERSION = 2

#: A user bound's fields (docs/bounds.md), in the order the bounds table holds them: per bound i
#: (from 1) the summary field `bound_<i>_<field>`.
BOUND_FIELDS = fields.BOUND_MEMBERS
#: Those holding text; the others are numbers (NaN where null).
BOUND_TEXT_FIELDS = frozenset(fields.BOUND_TEXT_MEMBERS)


def plain(value: Any) -> Any:
    """An HDF5 attribute as a Python value: str for text, bool, int, float, lists."""
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.ndarray):
        return [plain(v) for v in value.tolist()]
    return value


@dataclasses.dataclass
class Attributes:
    """A group's attributes: values (None where null), why a value is null, and units."""

    values: dict[str, Any]
    reasons: dict[str, str]
    units: dict[str, str]


def read_attributes(obj) -> Attributes:
    """A null value is stored as '<key>_reason' alone, the absent entries of a list as
    '<key>_missing' indices, and the unit of a quantity as '<key>_units' beside '<key>' (or beside
    '<key>_reason' when it is null)."""
    raw = {k: plain(v) for k, v in obj.attrs.items()}
    out = Attributes({}, {}, {})
    for key, value in raw.items():
        base = key.rsplit("_", 1)[0]
        if key.endswith("_units") and (base in raw or f"{base}_reason" in raw):
            out.units[base] = value
        elif key.endswith("_reason") and base not in raw:
            out.values[base] = None
            out.reasons[base] = value
        elif key.endswith("_missing") and base in raw:
            continue
        elif isinstance(value, list) and f"{key}_missing" in raw:
            missing = {int(i) for i in raw[f"{key}_missing"]}
            out.values[key] = [None if i in missing else v for i, v in enumerate(value)]
        else:
            out.values[key] = value
    return out


@dataclasses.dataclass
class Point:
    """One point's group: parameters, summary (None where null, with its reason in `reasons`),
    units of both, the tally's folded metrics, histograms, top values, chunks and raw samples,
    and the model's plot hints."""

    kind: str
    params: dict[str, Any]
    summary: dict[str, Any]
    reasons: dict[str, str]
    metrics: dict[str, dict[str, Any]]
    histograms: dict[str, Histogram]
    top_values: dict[str, np.ndarray]
    chunks: dict[str, np.ndarray]
    raw: np.ndarray | None
    plot: dict[str, Any] = dataclasses.field(default_factory=dict)
    units: dict[str, str] = dataclasses.field(default_factory=dict)
    #: Seconds the point took, over its sittings and parts (timing, not a result; None in files
    #: written before it was recorded).
    wall_time_s: float | None = None

    def value(self, key: str, default: Any = None) -> Any:
        """A summary value, or a parameter, by name."""
        if key in self.summary:
            return self.summary[key]
        return self.params.get(key, default)

    def series(self, key: str) -> np.ndarray:
        """A list of the summary as floats, NaN where an entry (or the whole list) is null."""
        value = self.summary.get(key)
        if value is None:
            return np.array([], dtype=float)
        if not isinstance(value, list):
            value = [value]
        return np.array([np.nan if v is None else float(v) for v in value], dtype=float)


def _read_histograms(group) -> dict[str, Histogram]:
    out = {}
    for name in group:
        h = group[name]
        attrs = read_attributes(h).values
        unit = attrs.get("unit") or plain(h["edges"].attrs.get("units", ""))
        out[name] = Histogram(name, h["edges"][()], h["counts"][()], int(attrs["underflow"]),
                              int(attrs["overflow"]), attrs["spacing"], unit or "",
                              attrs.get("metric"))
    return out


def read_point(group) -> Point:
    """A point group (/points/NNNN) as a Point."""
    kind = plain(group.attrs.get("kind", ""))
    params = read_attributes(group["params"])
    summary = read_attributes(group["summary"])
    metrics, histograms, tops, chunks, raw = {}, {}, {}, {}, None
    if "tally" in group:
        tally = group["tally"]
        for name in tally["totals"]:
            metrics[name] = read_attributes(tally["totals"][name]).values
        histograms = _read_histograms(tally["histograms"])
        tops = {name: tally["top_values"][name][()] for name in tally["top_values"]}
        chunks = {name: tally["chunks"][name][()] for name in tally["chunks"]}
        if "raw" in tally:
            raw = tally["raw"][()]
    plot = read_attributes(group["plot"]).values if "plot" in group else {}
    units = {**params.units, **summary.units}
    wall = group.attrs.get("wall_time_s")
    return Point(kind, params.values, summary.values, summary.reasons, metrics, histograms, tops,
                 chunks, raw, plot, units, None if wall is None else float(wall))


def _put_bound_fields(point: Point, rows: pd.DataFrame) -> None:
    """The point's rows of the bounds table back into its summary as `bound_<i>_<field>` (None
    where null, with the reason), as a file written before the table holds them."""
    for row in rows.itertuples(index=False):
        row = row._asdict()
        for field in BOUND_FIELDS:
            key = fields.bound(row["bound"], field)
            reason = row.get(f"{field}_reason", "")
            if isinstance(reason, str) and reason:
                point.summary[key] = None
                point.reasons[key] = reason
            else:
                value = row[field]
                point.summary[key] = value if isinstance(value, str) else float(value)
        if row.get("unit"):
            for field in fields.BOUND_QUANTITY_MEMBERS:
                point.units[fields.bound(row["bound"], field)] = row["unit"]


def check_format(path: str, root: dict[str, Any]) -> None:
    if root.get("filetype") != FILETYPE:
        raise FormatError(f"{path}: not a collnoise result file (its filetype attribute is "
                          f"{root.get('filetype')!r}, not {FILETYPE!r})")
    if root.get("format_version") != FORMAT_VERSION:
        raise FormatError(f"{path}: format_version {root.get('format_version')} is not "
                          f"{FORMAT_VERSION}, the version this reader knows")


def _decode_text(frame: pd.DataFrame) -> pd.DataFrame:
    for column in frame.columns:
        if frame[column].dtype == object:
            frame[column] = [v.decode("utf-8") if isinstance(v, bytes) else v
                             for v in frame[column]]
    return frame


def _table_from_groups(points: list[Point]) -> tuple[pd.DataFrame, dict, dict]:
    """The points table of a file written before it existed: the same columns, built from the
    point groups (scalars only; null is NaN)."""
    rows, units, sources = [], {"point": "", "kind": ""}, {"point": "point", "kind": "point"}
    for i, p in enumerate(points):
        row = {"point": i, "kind": p.kind}
        for source, values in (("params", p.params), ("summary", p.summary)):
            for key, value in values.items():
                if isinstance(value, list):
                    continue
                column = key if key not in row or sources.get(key) == source else f"{source}.{key}"
                row[column] = np.nan if value is None else value
                sources.setdefault(column, source)
                units.setdefault(column, p.units.get(key, ""))
        rows.append(row)
    frame = pd.DataFrame(rows)
    return frame, {c: units.get(c, "") for c in frame.columns}, \
        {c: sources.get(c, "summary") for c in frame.columns}


def _read_bound_table(f) -> tuple[pd.DataFrame | None, dict]:
    """`/points_bounds` (docs/hdf5-layout.md, "The bounds table"): a row per point and bound,
    null values NaN (their reasons in `<field>_reason`), and its columns' units; None for a file
    without one (no bounds, or bounds in the points table's columns, as files written before
    it hold them)."""
    if "points_bounds" not in f:
        return None, {}
    dataset = f["points_bounds"]
    table = _decode_text(pd.DataFrame(dataset[()]))
    units = dict(zip(dataset.dtype.names, (plain(u) for u in dataset.attrs["units"])))
    for field in BOUND_FIELDS:
        reason = f"{field}_reason"
        if reason in table.columns:
            table.loc[table[reason] != "", field] = np.nan
    return table, units


def _bound_column_names(table: pd.DataFrame) -> list[str]:
    """The columns `bound_<i>_<field>` the bounds table widens to, bound-major."""
    count = int(table["bound"].max()) if len(table) else 0
    return [fields.bound(i, field) for i in range(1, count + 1) for field in BOUND_FIELDS]


def _with_bound_columns(points: pd.DataFrame, table: pd.DataFrame) -> pd.DataFrame:
    """The points table with the bounds table's values as its columns `bound_<i>_<field>` (NaN
    where a point lacks bound i), before `bounds_decided`: the columns the points table held
    before the bounds had a table of their own."""
    count = int(table["bound"].max()) if len(table) else 0
    rows = table["point"].to_numpy(dtype=np.int64)
    bound = table["bound"].to_numpy(dtype=np.int64) - 1
    blocks = []
    for field in BOUND_FIELDS:
        text = field in BOUND_TEXT_FIELDS
        grid = np.full((len(points), count), np.nan, dtype=object if text else np.float64)
        grid[rows, bound] = table[field].to_numpy()
        blocks.append(pd.DataFrame(grid, index=points.index,
                                   columns=[fields.bound(i, field) for i in range(1, count + 1)]))
    wide = pd.concat(blocks, axis=1)[_bound_column_names(table)]
    decided = fields.bounds_decided
    at = list(points.columns).index(decided) if decided in points else \
        len(points.columns)
    return pd.concat([points.iloc[:, :at], wide, points.iloc[:, at:]], axis=1)


class Result:
    """A collnoise result file.

    points     pandas DataFrame, one row per point (row i is /points/i), the columns of the
               points table: `point`, `kind`, every parameter, every scalar summary field (null
               values are NaN; text is str)
    params     the parameter columns of `points`; `summary` the summary columns
    exact      the closed-form and exact values the models store (exact_mean, theorem1_lower,
               nhalf_exact, noiseless_time, ...): the numeric summary columns of that kind
    predictions  pandas DataFrame, one row per prediction of a run with prediction.draws (its
               point's parameters, then docs/reference/summary-fields.md, "Predictions"); empty
               for other runs
    units      {column: unit} ("seconds", "bytes", "1", "" for none)
    attrs      the root attributes (seed, name, kind, run_file_text, ...)
    sealed     True when the file's checksum was checked and matches, False when it carries none
               or was not checked (verify=False)

    The file's checksum is checked before h5py parses any of it (collnoise.seal), unless
    `verify` is False: DamagedFileError for a damaged file.

    `attribution()` and `bounds()` are the analyses of a result, one layer above this module:
    collnoise.critical_path and collnoise.bounds attach them to this class when they are
    imported, which `import collnoise` does (the layers: collnoise/__init__.py).
    """

    def __init__(self, path: str, verify: bool = True):
        self.path = str(path)
        self._verify = verify
        self._points: dict[int, Point] = {}
        #: `/points_bounds` as a DataFrame (a row per point and bound), None when the file has none
        self.bound_table: pd.DataFrame | None = None
        #: The points table as the file stores it: `points` without the bounds' columns
        self.table: pd.DataFrame
        self._wide: pd.DataFrame | None = None
        #: `/predictions_table` (docs/calibration.md, "Predictions with intervals"): a row per
        #: point of a run with prediction.draws, empty for a run without
        self.predictions: pd.DataFrame = pd.DataFrame()
        self.sealed = self._check()
        with h5py.File(self.path, "r") as f:
            self.attrs = read_attributes(f).values
            check_format(self.path, self.attrs)
            self._names = sorted(f["points"].keys()) if "points" in f else []
            if "points_table" in f:
                table = f["points_table"]
                self.table = _decode_text(pd.DataFrame(table[()]))
                names = list(table.dtype.names)
                self.units = dict(zip(names, (plain(u) for u in table.attrs["units"])))
                self.sources = dict(zip(names, (plain(s) for s in table.attrs["sources"])))
                if "predictions_table" in f:
                    self.predictions = _decode_text(pd.DataFrame(f["predictions_table"][()]))
                self.bound_table, bound_units = _read_bound_table(f)
                if self.bound_table is not None:
                    for column in _bound_column_names(self.bound_table):
                        self.units[column] = bound_units.get(column.rsplit("_", 1)[-1], "")
                        self.sources[column] = "summary"
            else:
                points = [read_point(f["points"][n]) for n in self._names]
                self._points = dict(enumerate(points))
                self.table, self.units, self.sources = _table_from_groups(points)

    @property
    def points(self) -> pd.DataFrame:
        """The points table, with the bounds table's fields as columns `bound_<i>_<field>` (built
        when first asked for: thousands of bounds make a wide frame)."""
        if self._wide is None:
            self._wide = self.table if self.bound_table is None else \
                _with_bound_columns(self.table, self.bound_table)
        return self._wide

    def _check(self) -> bool:
        """Verifies the file (when asked to) and notes which file was verified, so that a point
        group read later is read from that file, or from one verified again."""
        self._stamp = _stamp_of(self.path)
        if self._verify:
            return verify_seal(self.path)  # NotARegularFileError for a FIFO, a directory, ...
        require_regular(self.path)  # h5py would wait on a FIFO for ever
        return False

    # --- the run --------------------------------------------------------------------------------
    @property
    def root(self) -> dict[str, Any]:
        """The root attributes (the name collnoise_reader used)."""
        return self.attrs

    @property
    def name(self) -> str:
        return self.attrs.get("name", "result")

    @property
    def kind(self) -> str:
        """The collective kind of every point, "nhalf", "isoefficiency" or "mixed"."""
        return self.attrs.get("kind", "")

    def run_file(self) -> dict[str, Any]:
        """The run file, parsed from the text stored in the result."""
        return tomllib.loads(self.attrs.get("run_file_text", ""))

    @property
    def settings(self) -> dict[str, Any]:
        """The run file's [plot] table (title, panels, x, series), empty if none."""
        return self.run_file().get("plot", {})

    def __len__(self) -> int:
        return len(self.table)

    def __repr__(self) -> str:
        return f"<collnoise.Result {self.name!r}: {len(self)} points of kind {self.kind!r}>"

    # --- columns --------------------------------------------------------------------------------
    def _columns(self, source: str) -> list[str]:
        return [c for c in self.points.columns if self.sources.get(c) == source]

    @property
    def params(self) -> pd.DataFrame:
        return self.points[self._columns("params")]

    @property
    def summary(self) -> pd.DataFrame:
        return self.points[self._columns("summary")]

    @property
    def exact(self) -> pd.DataFrame:
        columns = [c for c in self._columns("summary")
                   if c.removeprefix("summary.") in fields.EXACT
                   and self.points[c].dtype.kind in "fiu"]
        return self.points[columns]

    # --- the point groups -----------------------------------------------------------------------
    def point(self, index: int) -> Point:
        """Point `index`'s group, read on first use (the file must still be there)."""
        index = int(index)
        if index not in self._points:
            if not 0 <= index < len(self._names):
                raise IndexError(f"{self.path}: no point {index} (it has {len(self._names)})")
            if _stamp_of(self.path) != self._stamp:
                self.sealed = self._check()  # replaced or changed since it was loaded
            with h5py.File(self.path, "r") as f:
                point = read_point(f["points"][self._names[index]])
            if self.bound_table is not None:
                _put_bound_fields(point, self.bound_table[self.bound_table["point"] == index])
            self._points[index] = point
        return self._points[index]

    def all_points(self) -> list[Point]:
        return [self.point(i) for i in range(len(self._names))]

    def series(self, index: int, key: str) -> np.ndarray:
        """A list field of a point's summary (`W`, `m`, `conventional_T`, `cycle`, ...) as floats,
        NaN where an entry does not exist."""
        return self.point(index).series(key)

    def reason(self, index: int, key: str) -> str | None:
        """Why a point's value is null, or None if it is not."""
        return self.point(index).reasons.get(key)

    def plot_hints(self, index: int) -> dict[str, Any]:
        """The model's plot hints for a point: figure, x, x_scale, y, y_low, y_high, y_label,
        references (a list)."""
        hints = dict(self.point(index).plot)
        refs = hints.get("references", "")
        hints["references"] = [r for r in refs.split(",") if r] if isinstance(refs, str) else refs
        return hints

    def histograms(self, index: int) -> dict[str, Histogram]:
        return self.point(index).histograms

    def histogram(self, index: int, name: str | None = None) -> Histogram:
        """A histogram of a point: by name, or the first one (the primary metric's)."""
        histograms = self.histograms(index)
        if not histograms:
            raise KeyError(f"{self.path}: point {index} has no histograms "
                           f"(only sampled points have a tally)")
        if name is None:
            return next(iter(histograms.values()))
        if name not in histograms:
            raise KeyError(f"{self.path}: point {index} has no histogram {name!r} "
                           f"(it has {', '.join(histograms)})")
        return histograms[name]


def _stamp_of(path: str) -> tuple[int, ...]:
    s = os.stat(path)
    return (s.st_dev, s.st_ino, s.st_size, s.st_mtime_ns)


def load(path, verify: bool = True) -> Result:
    """Reads a result file, its checksum checked first (as `collnoise verify` does).

    DamagedFileError (a FormatError, so a ValueError) naming the file when its checksum does not
    match or its seal is unreadable: a flipped bit, a truncated copy, a file changed by another
    program; `verify=False` reads it anyway, as `--no-verify` does. A file without a checksum
    (written before collnoise sealed its files, or by h5py) is read with an UnsealedFileWarning.
    NotARegularFileError (a FormatError) for a FIFO, a directory or a device, refused before it
    is opened; FormatError if it is not a result file this reader knows, OSError if it cannot be
    read, ModuleNotFoundError if xxhash (python3-xxhash) is missing to check it."""
    return Result(path, verify)
