"""collnoise result files in Python (docs/python.md).

    import collnoise
    result = collnoise.load("agarwal-fig4-exponential.h5")   # its checksum checked first
    result.points                      # pandas DataFrame, one row per point
    result.points.groupby("noise.f")["mean"].max()
    result.units["mean"]               # "seconds"
    result.exact                       # exact_mean, theorem1_lower, ...: the closed forms
    result.params                      # the parameter columns
    h = result.histogram(3)            # point 3's histogram: h.edges, h.counts, h.unit
    h.to_uhi()                         # UHI PlottableHistogram (mplhep.histplot(h.to_uhi()))
    by_category, by_point = collnoise.attribution(result)  # the critical paths' time, by category
    collnoise.bounds(result)           # the run file's [[bound]]s: a row per point and bound
    result.series(3, "W")              # a list field of point 3 (NaN where null)
    result.point(3).reasons            # why values are null
    collnoise.load(path, verify=False) # a file changed on purpose by another program
    collnoise.verify(path)             # the checksum alone: True, False (none), DamagedFileError
    q = collnoise.read_queue_stats("queues.h5")  # `timeline --queues`: per-rank match queues
    k = collnoise.read_link_load("links.h5")     # `timeline --links`: the network's links' load

    python3 -m collnoise.plot RESULT.h5 [--out DIR|FILE] [--format png|pdf]

Needs numpy, h5py, pandas, matplotlib and xxhash (Debian: python3-numpy python3-h5py
python3-pandas python3-matplotlib python3-xxhash).
"""

__version__ = "0.1.0"  # the engine's version (CMakeLists.txt project())

#: The package's layers, lowest first (docs/python.md, "The package's layers"). A module imports
#: modules of its own layer and of lower ones, never one of a higher layer, not even inside a
#: function: tests/python/test_python_layers.py reads this table and checks every import. "figures" is
#: the package collnoise.figures with every module in it; "__init__" is this file, whose names
#: gather the layers below the figures. A new module is added here.
LAYERS = (
    ("errors", "seal", "fields"),              # typed errors; the checksum; the field names
    ("histogram", "result", "queue_stats",     # reading a result file; a replay's queues
     "link_load", "replay_files"),             # and its links' load, and what their files share
    ("bounds", "critical_path", "__init__"),   # analyses of a result (critical_path: attribution)
    ("figures",),                              # drawing, and writing figures (figures.output)
    ("plot",),                                 # the command line, python3 -m collnoise.plot
)

from .errors import DamagedFileError, FormatError, NotARegularFileError  # noqa: E402,F401
from .errors import UnsealedFileWarning  # noqa: E402,F401
from .seal import verify  # noqa: E402,F401

# Without its dependencies the package still imports, so that `python3 -m collnoise.plot` can say
# in one line which one is missing and for which interpreter.
try:
    import h5py  # noqa: F401
    import numpy  # noqa: F401
    import pandas  # noqa: F401
except ModuleNotFoundError as error:  # pragma: no cover - depends on the machine
    MISSING_DEPENDENCY: str | None = error.name
else:
    MISSING_DEPENDENCY = None

if MISSING_DEPENDENCY is None:
    from .histogram import Histogram, PlottableHistogram  # noqa: F401
    from .result import FORMAT_VERSION, Point, Result, load  # noqa: F401
    from .critical_path import Attribution, attribution  # noqa: F401
    from .bounds import bounds  # noqa: F401,E402  (the name is the function, not the module)
    from .queue_stats import read_queue_stats  # noqa: F401,E402
    from .link_load import read_link_load  # noqa: F401,E402

    __all__ = ["load", "verify", "Result", "Point", "Histogram", "PlottableHistogram",
               "FormatError", "DamagedFileError", "NotARegularFileError", "UnsealedFileWarning",
               "FORMAT_VERSION",
               "attribution", "Attribution", "bounds", "read_queue_stats",
               "read_link_load"]
else:  # pragma: no cover

    def __getattr__(name):
        raise ImportError(f"collnoise.{name} needs the Python module {MISSING_DEPENDENCY}, which "
                          f"this interpreter lacks (Debian: apt-get install "
                          f"python3-{MISSING_DEPENDENCY})")
