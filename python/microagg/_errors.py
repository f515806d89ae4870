"""Exceptions raised by microagg; messages are the Rust library's, unchanged."""


class Error(Exception):
    """Base class of every microagg error."""


class DataError(Error, ValueError):
    """Bad input data: a NaN or infinite value, a constant column, a missing file, a
    non-numeric column, ... The message names the file (or frame), row and column."""


class UsageError(Error, ValueError):
    """A bad argument: unknown method or parameter, k out of range, bad time limit, ..."""


class InfeasibleError(Error, ValueError):
    """Labels that do not fit the data (wrong count)."""


class AlgorithmError(Error, RuntimeError):
    """An algorithm failed on valid input (a bug or a numerical breakdown)."""


class Interrupted(Error):
    """A run stopped (time limit) before it had a partition to return: an initializer
    stops between groups and has no partial result. (Ctrl-C in that phase re-raises
    KeyboardInterrupt instead.)"""
