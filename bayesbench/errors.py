"""One error hierarchy whose messages are written for the user, and one policy for it.

Error policy
------------
1. The library (data, preprocess, models, stats, evaluation, report, experiment) raises a
   :class:`BayesbenchError` subclass whose message speaks the library's own words: the
   file and line, the data set, the attribute, the parameter and the value. It never names
   a config key or a command-line flag. Where a caller may need to place the mistake, the
   error says what it concerns in an attribute (``ClassifierError.parameter``,
   ``DataError.attribute``, the spec fields of ``PlanError.problems``).
2. The config layer, the only one that knows key paths, catches those errors while it
   reads a config and re-raises them as one :class:`ConfigError` that names the key path
   of each problem (``classifiers[2].params.alpha: ...``), every problem at once.
3. The command line turns every mistake on the command line into click's usage error, in
   one place: one line on standard error and exit status 2, as ``--help`` says. A config
   that does not validate is also exit 2, one line per problem. Any other
   ``BayesbenchError`` is one line with its ``exit_code`` (1), and so is an ``OSError``
   naming a file; Ctrl-C is caught once and exits 130 (SIGTERM: 143).
4. Anything else is a bug and keeps its traceback.
"""
from __future__ import annotations

import contextlib


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
    ``parameter`` names the hyper-parameter at fault, if one is, so that the config
    layer can add its key path (``classifiers[2].params.alpha``).
    """

    def __init__(self, message: str, *, parameter: str | None = None):
        super().__init__(message)
        self.parameter = parameter


class NotFittedError(BayesbenchError, AttributeError):
    """A model was used before ``fit``."""


class ResultStoreError(BayesbenchError):
    """A result directory is locked, inconsistent, or from a different config."""


class DataChangedError(ResultStoreError):
    """A result directory holds finished tasks of a data file whose content has changed
    since (its SHA-256 differs from the one recorded): continuing would mix results of
    two different data sets. ``datasets`` names the data sets; exit status 2, as for
    another mistake in how the run was asked for."""

    exit_code = 2

    def __init__(self, message: str, *, datasets=()):
        super().__init__(message)
        self.datasets = tuple(datasets)


class ConfigChangedError(ResultStoreError):
    """A result directory holds the results of a different configuration: ``run_dir`` and
    ``changed``, where the two differ (as the config keys that hold them). Whoever asked
    for the run says how to go on (the command line names its flags)."""

    def __init__(self, message: str, *, run_dir, changed=()):
        super().__init__(message)
        self.run_dir = run_dir
        self.changed = tuple(changed)


class PreprocessError(BayesbenchError, ValueError):
    """A preprocessing step (imputation, discretization, noise) cannot be fitted or applied.

    The message speaks of the data set, the attribute and the option's value, never of a
    configuration key: the config layer adds the key path where it has one.
    """


class StatsError(BayesbenchError):
    """A statistical test cannot be computed on the given scores."""


class PlanError(BayesbenchError):
    """An experiment cannot be planned on its data: a data set cannot be read or split as
    asked, or lacks a class that a metric names.

    Holds every problem found, each as ``(field, message)``: ``field`` is the path of the
    experiment's part at fault as a tuple, such as ``("datasets", 0)``, ``("cv", "folds")``,
    ``("metrics", 2)`` or ``("compare", "metric")``; the message names the data set.
    """

    exit_code = 2

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__("\n".join(message for _, message in self.problems))


class Interrupted(BayesbenchError):
    """The user stopped a command (Ctrl-C); exit status 130 as for a shell's SIGINT (the
    command line sets 143 on one stopped by SIGTERM)."""

    exit_code = 130


class ReportError(BayesbenchError, ValueError):
    """A figure or report page cannot be drawn from the given results.

    Raised for missing columns, unknown classifiers, unsupported file formats and a
    missing optional plotting dependency; the message names the file or the column.
    """


class CheckError(BayesbenchError):
    """A run cannot be held against a published table: the file or the key at fault."""


class NoPublishedTable(CheckError):
    """The run's config names no published table: exit 2, as for a usage mistake, since
    nothing was asked that can be answered."""

    exit_code = 2


@contextlib.contextmanager
def naming(path):
    """An OSError raised inside names ``path`` when it names no file: a full disk's ENOSPC
    (and EIO, EDQUOT) comes from write() without a file name, and was reported as "No
    space left on device" alone."""
    try:
        yield
    except OSError as exc:
        if exc.filename is None:
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
        raise
