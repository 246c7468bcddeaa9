"""What the package raises and warns about when a file cannot be read as a collnoise result."""

from __future__ import annotations


class FormatError(ValueError):
    """Not a collnoise result file, or one of a format version this reader does not know."""


class DamagedFileError(FormatError):
    """A file whose checksum (its seal) does not match its content, or whose seal is unreadable:
    a flipped bit, a truncated copy, a file changed by another program (collnoise.seal).

    `path` is the file, `reason` what is wrong with it. The message mirrors `collnoise verify`'s
    and names the way to read the file anyway (`verify=False`); `collnoise plot` names its
    option instead (`message("--no-verify", "docs/cli.md")`)."""

    def __init__(self, path: str, reason: str, *, whole: str | None = None):
        self.path = str(path)
        self.reason = reason
        self._whole = whole  # a message that is not "'FILE' is damaged: REASON"
        super().__init__(self.message())

    def message(self, remedy: str = "verify=False", doc: str = "docs/python.md") -> str:
        if self._whole is not None:
            return self._whole
        return (f"'{self.path}' is damaged: {self.reason}; it is refused (if another program "
                f"changed it on purpose, {remedy} reads it anyway: {doc})")


class NotARegularFileError(FormatError):
    """A path that names a FIFO (named pipe), a directory, a device or a socket, not a regular
    file: refused before it is opened, so that nothing waits on a FIFO's writer or reads a device
    without end (as collnoise's commands refuse it).

    `path` is the path, `kind` what it is ("a FIFO (pipe)", "a directory", ...)."""

    def __init__(self, path: str, kind: str):
        self.path = str(path)
        self.kind = kind
        super().__init__(f"'{self.path}' is {kind}, not a regular file: results, parts and "
                         f"checkpoints are read only from regular files")


class UnsealedFileWarning(UserWarning):
    """A file without a checksum (written before collnoise sealed its files, or by another
    program such as h5py): read without verification."""
