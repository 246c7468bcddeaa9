"""The seal of every file collnoise writes, checked as `collnoise verify` checks it.

A file's first 512 bytes (the HDF5 user block, which HDF5 ignores) hold a checksum of the rest,
as text zero-padded to 512 bytes (outputs/file_seal.hpp, which writes and checks it in C++):

    collnoise sealed file 1
    xxh3-128 <32 lower-case hex digits of XXH3-128 over bytes [512, end), high 64 bits first>
    bytes <decimal length of bytes [512, end)>

The file is checked before h5py parses any of it: HDF5 checksums only part of its metadata, so a
flipped bit could otherwise be read as a good number. A file that starts with HDF5's signature
instead carries no seal (written before collnoise sealed its files, or by another program): it
is read with an UnsealedFileWarning. The seal guards against accidents, not malice: a crafted
file can carry a matching seal.

Needs the Python module xxhash (Debian: python3-xxhash) to check a seal, not to skip the check.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import warnings

from .errors import DamagedFileError, NotARegularFileError, UnsealedFileWarning

SEAL_BYTES = 512
MAGIC = b"collnoise sealed file 1\n"
HASH_TAG = b"xxh3-128 "
BYTES_TAG = b"bytes "
HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"
_HEX_DIGITS = 32
_BLOCK = 1 << 20
# std::from_chars of an unsigned 64-bit integer: decimal digits, no sign, no leading space.
_LENGTH = re.compile(rb"[0-9]+")


def _xxh3_128(path: str):
    try:
        import xxhash
    except ModuleNotFoundError as error:
        raise ModuleNotFoundError(
            f"checking the checksum of '{path}' needs the Python module xxhash, which "
            f"{sys.executable} lacks: install python3-xxhash (Debian) or xxhash (pip), or read "
            f"the file without checking it (verify=False)", name="xxhash") from error
    return xxhash.xxh3_128()


def file_kind(mode: int) -> str:
    """What a file of `mode` (os.stat's st_mode) is, in words, as collnoise's commands say it."""
    for test, kind in ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a directory"),
                       (stat.S_ISFIFO, "a FIFO (pipe)"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "a special file"


def open_regular(path):
    """`path` opened for reading in binary, if it is a regular file: NotARegularFileError naming
    it and what it is otherwise. Checked before it is opened (os.stat), opened without waiting
    (O_NONBLOCK: a FIFO would wait for a writer for ever) and checked again on what was opened
    (the path may have been replaced in between). FileNotFoundError and other OSErrors as open()
    raises them."""
    path = str(path)
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise NotARegularFileError(path, file_kind(mode))
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotARegularFileError(path, file_kind(mode))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def require_regular(path) -> None:
    """NotARegularFileError unless `path` is a regular file (open_regular, closed again): before
    a library that opens it by name (h5py) is given it."""
    open_regular(path).close()


def _unreadable(path: str) -> DamagedFileError:
    return DamagedFileError(path, "its seal is unreadable")


def _declared_content(path: str, head: bytes) -> tuple[bytes, int]:
    """The hex digest and the length the seal states; DamagedFileError when it is malformed."""
    rest = head[len(MAGIC):]
    if not rest.startswith(HASH_TAG):
        raise _unreadable(path)
    digest = rest[len(HASH_TAG):len(HASH_TAG) + _HEX_DIGITS]
    rest = rest[len(HASH_TAG) + _HEX_DIGITS:]
    if not rest.startswith(b"\n" + BYTES_TAG):
        raise _unreadable(path)
    at = len(head) - len(rest) + 1 + len(BYTES_TAG)
    number = _LENGTH.match(head, at)
    if number is None or number.end() == len(head) or head[number.end()] != ord("\n"):
        raise _unreadable(path)
    length = int(number.group())
    if length >= 1 << 64:  # from_chars: out of range
        raise _unreadable(path)
    if any(head[number.end() + 1:]):  # zeros to the end of the seal
        raise _unreadable(path)
    return digest, length


def check_seal(path) -> bool:
    """Checks a file's seal, reading the file once in blocks: True when it matches the content,
    False when the file carries no seal (an HDF5 file written before seals existed, or by another
    program). DamagedFileError naming the file when the seal does not match (truncated or
    extended, or any byte changed) or is unreadable, or when the file has neither a seal nor an
    HDF5 signature at its start; NotARegularFileError (before anything is read) for a FIFO, a
    directory or a device; OSError when it cannot be read; ModuleNotFoundError when xxhash is
    missing."""
    path = str(path)
    with open_regular(path) as f:
        head = f.read(SEAL_BYTES)
        if head.startswith(HDF5_SIGNATURE):
            return False
        if len(head) < SEAL_BYTES or not head.startswith(MAGIC):
            raise DamagedFileError(
                path, "no seal and no HDF5 signature at its start",
                whole=f"'{path}' is neither a collnoise file nor HDF5 (no seal and no HDF5 "
                      f"signature at its start): damaged, or another kind of file")
        digest, length = _declared_content(path, head)
        state = _xxh3_128(path)
        total = 0
        while block := f.read(_BLOCK):
            state.update(block)
            total += len(block)
    if total != length:
        raise DamagedFileError(path, f"it holds {total} bytes after its seal, the seal says "
                                     f"{length} (truncated or extended)")
    # hexdigest() is the canonical form, high 64 bits first: fmt's {:016x}{:016x} in C++.
    if state.hexdigest().encode("ascii") != digest:
        raise DamagedFileError(path, "its checksum does not match its content (changed after it "
                                     "was written, by a fault or another program)")
    return True


def unsealed_note(path: str) -> str:
    return (f"'{path}' carries no checksum (written before collnoise sealed its files, or by "
            f"another program): read without verification")


def verify(path) -> bool:
    """check_seal(), with an UnsealedFileWarning for a file that carries no seal (as collnoise's
    commands print a note): True when the checksum matches, False when there is none."""
    sealed = check_seal(path)
    if not sealed:
        warnings.warn(unsealed_note(str(path)), UnsealedFileWarning, stacklevel=2)
    return sealed
