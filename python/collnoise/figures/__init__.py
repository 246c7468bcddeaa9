"""The figures of a result: one module per figure, found by the figure's name.

Each model names the figure its points need in its plot hints (`/points/NNNN/plot`: `figure`,
`x`, `y`, `y_low`, `y_high`, `y_label`, `references`; PlotHints in engine/study.hpp), as the
C++ models are found by their kind's name. The figure "NAME" is drawn by the function `draw` of
the module collnoise.figures.NAME, imported the first time a result needs it:

    curve.py           y against x with its interval and references (the default: most
                       collectives, the tree barrier, schedules)
    cycles.py          Chen & Suda's Figures 8 and 9 (butterfly, dissemination)
    network.py         Hoefler et al.'s slowdown
    isoefficiency.py   Bosque et al.'s W(m) and efficiency surfaces
    nhalf.py           N_1/2 and its simulated check

timeline.py is not a figure of a result's points: it draws one replayed sample's timeline from
its Chrome trace JSON file (draw_timeline(json_path, out_path), docs/timelines.md) and defines no
`draw`, so no model can name it.

qq.py is not either: it draws the QQ plot of `collnoise compare`'s JSON (draw_qq(json_path,
out_path), docs/compare.md) and defines no `draw`.

attribution.py is not named by a model either: a point's hints name one figure (schedules:
`curve`), and `draw` adds the attribution figure (where the critical path's time went, the noise
absorbed off it) after the models' figures of a result whose points recorded critical paths
(`[output] critical_path = true`). It defines no `draw` either.

bounds.py is not either: `draw` adds the bounds figure (each `[[bound]]` of the run file against
the estimate it is held to, the verdict at each point; docs/bounds.md) last, for a result whose
points hold bounds. No `draw` either.

A new model either names an existing figure or adds one module, python/collnoise/figures/
NAME.py, defining `draw(result, rows)`; nothing else is edited. common.py holds what figures
share (its names are also importable from here); output.py writes a figure to its file (the
formats, a temporary name renamed), for `collnoise plot` and for the figures drawn alone, and
defines no `draw`. A figure drawn outside the package (a model of your own, built against the
installed library) is registered with `@figure("NAME")` instead; a registered function comes
before a module of the same name.

`draw(result, rows)` takes the result and the rows (points) it draws, and returns a list of
`(suffix, matplotlib Figure)`. It draws with the points table's values (`result.points`) and the
point groups' lists (`result.series`), and marks every data line with `tag()` so that tests can
compare what is drawn with what the file holds (tests/python/test_figures.py).

The run file's [plot] table refines the figure: `title`, `panels` (the parameter that splits a
figure into panels), `x` (the parameter on the horizontal axis) and `series` (the parameters
that make the curves; by default every parameter that varies and is not implied by the others).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

from ..result import Result
from .common import *  # noqa: F401,F403  (the helpers, as collnoise.figures.tag etc.)
from .common import FigureList

DrawFunction = Callable[[Result, list[int]], FigureList]
_REGISTRY: dict[str, DrawFunction] = {}

# Results written before plot hints existed name their kind instead: the kinds of those files
# whose figure has another name. Newer results name their figure; nothing is added here.
_FIGURE_OF_KIND = {"tree_barrier": "curve", "schedule": "curve", "butterfly": "cycles",
                   "dissemination": "cycles"}


class NoFigure(ValueError):
    """No figure is registered for the points of a result."""


def figure(name: str):
    """Registers a function as the figure named `name` in the models' plot hints, for figures
    drawn outside this package; the package's own are its modules."""

    def register(function):
        _REGISTRY[name] = function
        return function

    return register


def draw_function(name: str) -> DrawFunction | None:
    """The function drawing the figure `name`: the one registered under it, else the `draw` of
    the module collnoise.figures.<name> (imported now if it was not); None if neither exists."""
    if name in _REGISTRY:
        return _REGISTRY[name]
    if not name.isidentifier() or name.startswith("_"):
        return None
    module_name = f"{__name__}.{name}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise  # the figure's module is there but lacks a module it imports
        return None
    function = getattr(module, "draw", None)
    return function if callable(function) else None


def registered() -> list[str]:
    """The names of every figure: the package's modules that define `draw`, and the functions
    registered with @figure."""
    modules = [m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")]
    return sorted(set(_REGISTRY) | {m for m in modules if draw_function(m)})


def figure_name(result: Result, row: int) -> str:
    hints = result.plot_hints(row)
    kind = result.points.at[row, "kind"] if "kind" in result.points else result.kind
    return hints.get("figure") or _FIGURE_OF_KIND.get(kind, kind)


def draw(result: Result) -> FigureList:
    """Every figure of a result, as (suffix, Figure): the files are named <name>-<suffix>. The
    models' figures come first, then the attribution figure when points recorded critical
    paths, then the bounds figure when points hold bounds."""
    by_figure: dict[str, list[int]] = {}
    for row in range(len(result)):
        by_figure.setdefault(figure_name(result, row), []).append(row)
    out: FigureList = []
    for name, rows in by_figure.items():
        function = draw_function(name)
        if function is None:
            raise NoFigure(f"{result.path}: no figure '{name}' for points of kind "
                           f"'{result.points.at[rows[0], 'kind']}' (known: "
                           f"{', '.join(registered())})")
        drawn = function(result, rows)
        if len(by_figure) > 1:  # a run mixing figures: keep the files apart
            drawn = [(f"{name}-{suffix}" if not suffix.startswith(name) else suffix, fig)
                     for suffix, fig in drawn]
        out.extend(drawn)
    from . import attribution  # imported here: `python3 -m collnoise.figures.attribution` runs it

    out.extend(attribution.figures_of(result))  # nothing for points without critical paths
    from . import bounds  # likewise: `python3 -m collnoise.figures.bounds`

    out.extend(bounds.figures_of(result))  # nothing for a run file without [[bound]] tables
    return out
