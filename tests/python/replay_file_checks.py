"""What the tests of a replay's files (link load, queue statistics) share: that a reader refuses
damaged copies of a file it reads, and files of another kind, in one line naming the fault.

Each check writes its copies into the current folder (the module's work folder, conftest.py).
"""

from __future__ import annotations

import json
from typing import Callable

import pytest

import collnoise


def check_damaged_refused(read: Callable[[str], object], from_json: str, from_h5: str,
                          edits: list[tuple[Callable[[dict], None], str]]) -> None:
    """`read` refuses, with DamagedFileError: `from_h5` with one bit of its middle byte flipped
    (the error names the copy); `from_json` changed by each edit of `edits` (a function that
    changes the document in place, and the words the refusal says); `from_json` cut in half."""
    with open(from_h5, "rb") as f:
        data = bytearray(f.read())
    data[len(data) // 2] ^= 0x10
    with open("flipped.h5", "wb") as f:
        f.write(data)
    with pytest.raises(collnoise.DamagedFileError, match="flipped.h5"):
        read("flipped.h5")

    for edit, words in edits:
        with open(from_json, encoding="utf-8") as f:
            doc = json.load(f)
        edit(doc)
        with open("edited.json", "w", encoding="utf-8") as f:
            json.dump(doc, f)
        with pytest.raises(collnoise.DamagedFileError, match=words):
            read("edited.json")

    with open(from_json, "rb") as f:
        text = f.read()
    with open("truncated.json", "wb") as f:
        f.write(text[:len(text) // 2])
    with pytest.raises(collnoise.DamagedFileError, match="not JSON"):
        read("truncated.json")


def check_other_files_refused(read: Callable[[str], object], kind: str, result: str) -> None:
    """`read` refuses, with FormatError saying it is "not a collnoise <kind> file": a JSON file of
    another program (a trace) and `result`, a collnoise result; and a name that is neither .json
    nor .h5."""
    with open("other.json", "w", encoding="utf-8") as f:
        json.dump({"traceEvents": []}, f)
    for path in ("other.json", result):
        with pytest.raises(collnoise.FormatError, match=f"not a collnoise {kind} file"):
            read(path)
    with pytest.raises(collnoise.FormatError, match=".json or .h5"):
        read("other.txt")
