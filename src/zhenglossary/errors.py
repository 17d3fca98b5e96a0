"""Every error a user can cause, each with a message that says what to do next.

The core raises these; the CLI turns them into one line on stderr and an exit code.
Exit codes: 0 clean, 1 findings or failed files, 2 cannot run.
"""

from __future__ import annotations


class ZhenError(Exception):
    """Base class: ``str(error)`` is the whole message shown to the user."""

    exit_code = 2

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 column: int | None = None) -> None:
        self.path = path
        self.line = line
        self.column = column
        where = ""
        if path is not None:
            where = str(path)
            if line is not None:
                where += f":{line}"
                if column is not None:
                    where += f":{column}"
            where += ": "
        super().__init__(where + message)
        self.detail = message


class UsageError(ZhenError):
    """Bad command-line usage the parser cannot catch (conflicting options, ...)."""


class PathNotFound(ZhenError):
    """A path given on the command line does not exist."""


class NoNotesFound(ZhenError):
    """A directory holds no Markdown notes."""


class NoteReadError(ZhenError):
    """A note cannot be read: unreadable, not UTF-8, binary."""

    exit_code = 1


class GlossaryNotFound(ZhenError):
    """No glossary.yaml given or found upwards from the current directory."""


class GlossaryError(ZhenError):
    """The glossary cannot be loaded: syntax or schema errors."""


class ModelError(ZhenError):
    """No usable zh→en model, or an argos package is broken."""


class ServerUnreachable(ModelError):
    """A model server does not answer (connection refused, timed out). ``short`` is a one-line
    form of the message for listings."""

    short = ""


class OutputError(ZhenError):
    """An output file cannot be written (read-only directory, disk full, ...)."""

    exit_code = 1


class MemoryStoreError(ZhenError):
    """The translation memory cannot be opened or written."""


class WorkerError(ZhenError):
    """A ``--jobs`` process stopped before it finished (killed, or out of memory)."""

    def __init__(self, what: str) -> None:
        super().__init__(f"a --jobs process {what} stopped before it finished (killed, or out "
                         "of memory?); nothing it was doing was written — run again with "
                         "--jobs 1, or fewer jobs")
