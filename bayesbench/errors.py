"""One error hierarchy whose messages are written for the user.

The command line turns any :class:`BayesbenchError` into a single line on
standard error and a non-zero exit status; anything else is a bug and keeps its
traceback.
"""
from __future__ import annotations


class BayesbenchError(Exception):
    """Base class of every error bayesbench reports to a user."""

    exit_code = 1


class DataError(BayesbenchError):
    """A data file cannot be read or does not make a usable data set.

    The message names the file and, where known, the line or attribute.
    """

    def __init__(self, message: str, *, path=None, line: int | None = None,
                 attribute: str | None = None):
        self.path = None if path is None else str(path)
        self.line = line
        self.attribute = attribute
        where = ""
        if self.path is not None:
            where = self.path
            if line is not None:
                where += f":{line}"
            where += ": "
        if attribute is not None:
            message = f"attribute '{attribute}': {message}"
        super().__init__(where + message)


class ConfigError(BayesbenchError):
    """An experiment configuration is invalid.

    Holds every problem found, each as ``(key_path, message)``, so that a user
    sees all of them at once.
    """

    exit_code = 2

    def __init__(self, problems, *, path=None):
        self.problems = list(problems)
        self.path = None if path is None else str(path)
        prefix = f"{self.path}: " if self.path else ""
        lines = [f"{prefix}{key}: {msg}" if key else f"{prefix}{msg}"
                 for key, msg in self.problems]
        super().__init__("\n".join(lines))


class ClassifierError(BayesbenchError, ValueError):
    """Unknown classifier, unknown or invalid parameter, or unusable input.

    Also a ``ValueError``, the exception scikit-learn's conventions expect from an
    estimator given bad input, so that its tools handle ours like its own.
    """


class NotFittedError(BayesbenchError, AttributeError):
    """A model was used before ``fit``."""


class ResultStoreError(BayesbenchError):
    """A result directory is locked, inconsistent, or from a different config."""


class PreprocessError(BayesbenchError, ValueError):
    """A preprocessing step (imputation, discretization, noise) cannot be fitted or applied.

    The message speaks of the data set, the attribute and the option's value, never of a
    configuration key: the config layer adds the key path where it has one.
    """


class StatsError(BayesbenchError):
    """A statistical test cannot be computed on the given scores."""


class Interrupted(BayesbenchError):
    """The user stopped a command (Ctrl-C); exit status 130 as for a shell's SIGINT."""

    exit_code = 130


class ReportError(BayesbenchError, ValueError):
    """A figure or report page cannot be drawn from the given results.

    Raised for missing columns, unknown classifiers, unsupported file formats and a
    missing optional plotting dependency; the message names the file or the column.
    """
