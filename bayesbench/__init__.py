"""bayesbench: run, compare and report experiments with Bayesian network classifiers."""
from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("bayesbench")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+unknown"

from .errors import BayesbenchError  # noqa: E402

__all__ = ["__version__", "BayesbenchError", "load_dataset", "load_results", "load_predictions",
           "make_classifier",
           "list_classifiers"]


def __getattr__(name):
    # Imported lazily so that `bayesbench --help` does not pay for numpy and pandas.
    if name == "load_dataset":
        from .data import load_dataset
        return load_dataset
    if name == "load_results":
        from .evaluation.store import records_frame
        return records_frame
    if name == "load_predictions":
        from .evaluation.predictions import load_predictions
        return load_predictions
    if name in ("make_classifier", "list_classifiers"):
        from .models import registry
        return getattr(registry, name)
    raise AttributeError(f"module 'bayesbench' has no attribute {name!r}")
