"""What the files of a replayed sample share (docs/timelines.md: match-queue statistics, link
load; outputs/replay_file.hpp in C++): JSON or HDF5 by suffix, a declared file type and format
version, an HDF5 file's checksum checked first, and a damaged file refused with DamagedFileError
(one of another kind or version with FormatError). Each kind keeps its own keys and checks."""

from __future__ import annotations

import contextlib
import json
import os
from typing import Any, Iterator

from .errors import DamagedFileError, FormatError
from .seal import check_seal, open_regular, require_regular


def damaged(path: str, reason: str) -> DamagedFileError:
    """A damaged file, refused: no option reads it anyway (its values cannot be trusted)."""
    return DamagedFileError(path, reason, whole=f"'{path}' is damaged: {reason}; it is refused")


def suffix_of(path: str, what: str) -> str:
    """".json" or ".h5"; FormatError naming `what` ("queue statistics") for any other."""
    extension = os.path.splitext(path)[1]
    if extension not in (".json", ".h5"):
        raise FormatError(f"{path}: {what} files are .json or .h5 files")
    return extension


def check_version(path: str, found: Any, known: int) -> None:
    """FormatError unless the file's format_version `found` is the reader's `known`."""
    if found != known:
        raise FormatError(f"{path}: format_version {found} is not {known}, which this reader "
                          f"knows")


def read_json_doc(path: str, filetype: str, what: str) -> dict[str, Any]:
    """The JSON object of `path`, whose "format" is `filetype`."""
    with open_regular(path) as f:
        try:
            doc = json.loads(f.read().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise damaged(path, f"it is not JSON ({error}): truncated or changed") from error
    if not isinstance(doc, dict) or doc.get("format") != filetype:
        raise FormatError(f"{path}: not a collnoise {what} file (its format is not "
                          f"'{filetype}')")
    return doc


def attribute_text(value: Any) -> str:
    """An HDF5 text attribute or string column's value as text."""
    return value.decode() if isinstance(value, bytes) else str(value)


@contextlib.contextmanager
def open_h5(path: str, verify: bool, filetype: str, what: str) -> Iterator[Any]:
    """The h5py file of `path` (its checksum checked first unless not `verify`), whose filetype
    is `filetype`."""
    import h5py

    if verify:
        check_seal(path)
    else:
        require_regular(path)
    with h5py.File(path, "r") as f:
        if attribute_text(f.attrs.get("filetype", b"")) != filetype:
            raise FormatError(f"{path}: not a collnoise {what} file (its filetype is not "
                              f"'{filetype}')")
        yield f
