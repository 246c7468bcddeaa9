"""Draws the figures of a collnoise result file (docs/python.md).

    python3 -m collnoise.plot RESULT.h5... [--out DIR|FILE] [--format png|pdf|svg] [--dpi N]
                              [--no-verify]
    collnoise plot RESULT.h5... [...]     (the same, with the interpreter collnoise was built for)

Each result's checksum is checked before it is read (collnoise.seal), as every collnoise command
does: a damaged file is refused in one line naming it; --no-verify reads it anyway.

Each model names its figure (the plot hints stored with every point); the run file's [plot]
table gives the title, the panels, the x parameter and the curves. Files are named
<run name>-<what>.<format> in DIR (default: the current directory), or FILE itself for a result
with one figure (FILE-stem-<what>.<format> beside it for more; a file needs one result). Each
file is written to a temporary name and renamed (collnoise.figures.output). Prints the files
written, one a line.

Exit codes: 0 done, 1 a file could not be written, 2 bad input (not a result file, a damaged
one, unknown figure, missing Python module).
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings

PROG = "collnoise plot"


def _fail(message: str, code: int) -> int:
    print(f"{PROG}: error: {' '.join(str(message).split())}", file=sys.stderr)
    return code


def _parser(formats: tuple[str, ...]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description="draw the figures of a result file")
    parser.add_argument("results", nargs="+", metavar="RESULT",
                        help="collnoise result files (.h5)")
    parser.add_argument("--out", default=".",
                        help="folder for the figures (default: .), or a file name ending in "
                             ".png, .pdf or .svg")
    parser.add_argument("--format", choices=formats, default=None,
                        help="file format (default: the --out file's extension, else png)")
    parser.add_argument("--dpi", type=int, default=130, help="resolution of PNG files")
    parser.add_argument("--no-verify", action="store_true",
                        help="read the results without checking their checksums")
    return parser


def output_paths(name: str, suffixes: list[str], out: str, fmt: str | None) -> tuple[list[str], str]:
    """The file of each figure, and the format: `out` is a file when it ends in a known
    extension, else a folder."""
    from .figures.output import FORMATS

    stem, ext = os.path.splitext(out)
    is_file = ext.lower().lstrip(".") in FORMATS
    fmt = fmt or (ext.lower().lstrip(".") if is_file else "png")
    if is_file:
        if len(suffixes) == 1:
            return [out], fmt
        return [f"{stem}-{s}.{fmt}" for s in suffixes], fmt
    return [os.path.join(out, f"{name}-{s}.{fmt}") for s in suffixes], fmt


def _missing_module() -> str | None:
    """The first of numpy, h5py, pandas and matplotlib this interpreter lacks, or None."""
    import collnoise

    if collnoise.MISSING_DEPENDENCY is not None:
        return collnoise.MISSING_DEPENDENCY
    try:
        import matplotlib  # noqa: F401
    except ModuleNotFoundError:
        return "matplotlib"
    return None


def _missing(module: str) -> int:
    skip = " (or draw without checking checksums: --no-verify)" if module == "xxhash" else ""
    return _fail(f"{sys.executable} has no Python module {module}: install python3-{module} "
                 f"(Debian), or run with an interpreter that has it{skip}", 2)


def main(argv: list[str] | None = None) -> int:
    # The figures (collnoise.figures, whose output helper holds the formats --out and --format
    # take) need numpy, h5py, pandas and matplotlib: without one of them, one line says which,
    # before the arguments are read.
    missing = _missing_module()
    if missing:
        return _missing(missing)
    import matplotlib

    matplotlib.use("Agg")
    import collnoise

    from . import figures
    from .figures.output import FORMATS

    args = _parser(FORMATS).parse_args(argv)
    if len(args.results) > 1 and os.path.splitext(args.out)[1].lower().lstrip(".") in FORMATS:
        return _fail(f"--out {args.out} names one file, for {len(args.results)} results: give "
                     f"a folder", 2)
    if not args.no_verify:
        try:
            import xxhash  # noqa: F401  (checks the results' checksums)
        except ModuleNotFoundError:
            return _missing("xxhash")

    # Every result is tried; the exit code is the worst one.
    return max(plot_one(collnoise, figures, path, args) for path in args.results)


def plot_one(collnoise, figures, path: str, args) -> int:
    """Draws one result's figures and prints the files written; returns an exit code."""
    try:
        with warnings.catch_warnings(record=True) as notes:
            warnings.simplefilter("always", collnoise.UnsealedFileWarning)
            result = collnoise.load(path, verify=not args.no_verify)
    except FileNotFoundError:
        return _fail(f"{path}: no such file", 2)
    except collnoise.DamagedFileError as e:
        return _fail(e.message("--no-verify", "docs/cli.md"), 2)
    except collnoise.FormatError as e:
        return _fail(e, 2)
    except OSError as e:
        return _fail(f"{path}: cannot be read as HDF5 ({e}): not a collnoise result file", 2)
    for note in notes:  # a file without a checksum: one line, as collnoise's commands say it
        if issubclass(note.category, collnoise.UnsealedFileWarning):
            print(f"{PROG}: note: {' '.join(str(note.message).split())}", file=sys.stderr)
        else:
            warnings.showwarning(note.message, note.category, note.filename, note.lineno)
    try:
        drawn = figures.draw(result)
    except figures.NoFigure as e:
        return _fail(e, 2)
    from .figures.output import save

    paths, fmt = output_paths(result.name, [s for s, _ in drawn], args.out, args.format)
    folder = os.path.dirname(paths[0]) if paths else "."
    try:
        os.makedirs(folder or ".", exist_ok=True)
        for (_, fig), file in zip(drawn, paths):
            save(fig, file, fmt, args.dpi)
            print(file, flush=True)
    except OSError as e:
        return _fail(f"{e.filename or folder}: {e.strerror or e}", 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
