"""Writing a figure to its file: the formats, the temporary name renamed into place, a figure
that cannot be written named by its own path, and the entry point of every
`python3 -m collnoise.figures.<name>` (what collnoise passes on when it is asked to stop).

`collnoise plot` (collnoise.plot) and the figures drawn beside a model's own or from a command's
JSON (attribution, bounds, timeline, qq) write their files through here. This module imports no
other module of the package.
"""

from __future__ import annotations

import os
import signal
import sys
import tempfile

#: The formats a figure is written in, named by a file's extension.
FORMATS = ("png", "pdf", "svg")


def save(fig, path: str, fmt: str, dpi: int) -> None:
    """Writes a figure to a temporary name beside `path`, then renames it."""
    folder = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            fig.savefig(f, format=fmt, dpi=dpi)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def format_of(out_path: str) -> str:
    """The format `out_path` is written in, by its extension (png without one); ValueError for
    an extension that is none of FORMATS."""
    fmt = os.path.splitext(out_path)[1].lower().lstrip(".") or "png"
    if fmt not in FORMATS:
        raise ValueError(f"{out_path}: the figure is written as {', '.join(FORMATS)}")
    return fmt


class FigureNotWritten(Exception):
    """A figure that could not be written (a missing or read-only folder, a full disk): the
    message names the figure's own path, not the temporary it was written to."""


def _file_identity(path: str):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def save_figure(fig, out_path: str, fmt: str, dpi: int) -> None:
    """Saves `fig` as `save` does (a temporary name beside `out_path`, renamed);
    FigureNotWritten naming `out_path` when that fails. A stop that arrives once the temporary
    was renamed over `out_path` leaves the figure written: it is then not passed on."""
    before = _file_identity(out_path)
    try:
        save(fig, out_path, fmt, dpi)
        # Inside the try: a stop that lands between the rename and this line is caught below,
        # where the renamed figure is seen and kept (exit 0), not half reported as a stop.
        _keep_written_figure()
    except _Stopped:
        if _file_identity(out_path) in (None, before):
            raise
        _keep_written_figure()
    except IsADirectoryError as error:
        raise FigureNotWritten(f"cannot write the figure '{out_path}': it is a directory") \
            from error
    except OSError as error:
        raise FigureNotWritten(f"cannot write the figure '{out_path}': "
                               f"{error.strerror or error}") from error


def _keep_written_figure() -> None:
    """Once the figure is renamed into place, a stop changes nothing: the stop signals are
    ignored from here on. (Ignored, not handled: Python's finalization puts handled signals back
    to their default action, and a SIGTERM during it would end the process by the signal with
    the figure written.)"""
    global _figure_written
    _figure_written = True
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGUSR1):
        signal.signal(number, signal.SIG_IGN)


class _Stopped(BaseException):
    """SIGINT, SIGTERM or SIGUSR1 while a figure is drawn: unwinds like KeyboardInterrupt, so
    that the figure's temporary is removed (`save`)."""


# Set once save_figure has renamed a figure into place: a stop after it changes nothing.
_figure_written = False


def _stop_on_signals() -> None:
    """SIGINT, SIGTERM and SIGUSR1 (what collnoise passes on when it is asked to stop) raise
    _Stopped once, unless the figure is written by then; later ones are ignored (the temporary
    is being removed)."""
    numbers = (signal.SIGINT, signal.SIGTERM, signal.SIGUSR1)

    def stop(number, frame):
        for other in numbers:
            signal.signal(other, signal.SIG_IGN)
        if not _figure_written:
            raise _Stopped(number)

    for number in numbers:
        signal.signal(number, stop)


def extra_figure_main(argv, module: str, draw, source: str = "RESULT.h5") -> int:
    """`python3 -m collnoise.figures.<module> SOURCE OUT.png|pdf|svg` (SOURCE: a result, or the
    JSON a command wrote): exit 0; 1 with one line naming OUT when it cannot be written; 2 with
    one line on bad input; 128 + the signal, silently and with no temporary left, on SIGINT,
    SIGTERM or SIGUSR1 (collnoise, which passes the signal on, says what was kept)."""
    if len(argv) != 2:
        print(f"usage: python3 -m collnoise.figures.{module} {source} OUT.png|pdf|svg",
              file=sys.stderr)
        return 2
    _stop_on_signals()
    try:
        print(draw(argv[0], argv[1]))
    except _Stopped as stopped:
        return 128 + stopped.args[0]
    except KeyboardInterrupt:
        return 128 + signal.SIGINT
    except FigureNotWritten as error:
        print(f"collnoise.figures.{module}: failure: {' '.join(str(error).split())}",
              file=sys.stderr)
        return 1
    except (OSError, ValueError, KeyError) as error:
        print(f"collnoise.figures.{module}: error: {' '.join(str(error).split())}",
              file=sys.stderr)
        return 2
    return 0
