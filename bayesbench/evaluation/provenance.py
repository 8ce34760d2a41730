"""What ran each classifier of an experiment: its class, the distribution (and version) that
provides it, and every parameter its model had after construction, defaults included.

A record's ``params`` keep only the parameters the config wrote; a later version with other
defaults would otherwise be indistinguishable. Each session of ``environment.json`` keeps
this for every classifier, keyed by label, and
:func:`~bayesbench.evaluation.store.records_frame` fills the parameters a record leaves out
from it. A classifier that is not bayesbench's own (scikit-learn's, a plugin's) changes with
a package bayesbench does not pin, and a resumed run may mix two of its versions: each of its
records carries its own ``provenance`` (:func:`model_provenance`).
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from ..models.registry import classifier_class, make_classifier
from ..spec import Experiment


def _distributions() -> dict:
    """Each importable top-level package's distributions (``sklearn``: ``scikit-learn``), as
    installed now: a package installed (or removed) since the last look changes the
    directories of ``sys.path`` that hold its metadata, and the map is made again (it was
    made once per process, so a plugin installed after a first run was recorded as of no
    distribution by every later run of that process)."""
    return _distributions_at(_path_state())


def _path_state() -> tuple:
    """``sys.path``'s directories with their modification times: what installing or removing
    a distribution changes (a few ``stat`` calls, against a scan of every distribution)."""
    state = []
    for entry in sys.path:
        try:
            state.append((entry, os.stat(entry or ".").st_mtime_ns))
        except OSError:
            state.append((entry, None))
    return tuple(state)


@lru_cache(maxsize=1)
def _distributions_at(state: tuple) -> dict:
    """:func:`metadata.packages_distributions` for one state of ``sys.path``."""
    return metadata.packages_distributions()


def distribution_of(cls) -> tuple[str | None, str | None]:
    """The installed distribution that provides ``cls`` and its version; ``(None, None)``
    for a class of no installed distribution (a module beside the config)."""
    top = cls.__module__.partition(".")[0]
    for name in _distributions().get(top, ()):
        try:
            return name, metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return None, None


def classifier_provenance(experiment: Experiment) -> dict:
    """``{label: {"class", "distribution", "version", "params"}}`` of every classifier of
    ``experiment``; ``params`` is the model's ``get_params()`` as made with the config's
    parameters (a ``random_state`` left None is set per task; see the records). A class
    that cannot be made here has its ``error`` instead (its tasks record why)."""
    out = {}
    for spec in experiment.classifiers:
        try:
            cls = classifier_class(spec.learner)
            model = make_classifier(spec.learner, **spec.params)
            params = model.get_params(deep=False) if hasattr(model, "get_params") else {}
        except Exception as exc:  # noqa: BLE001 - recorded; the run reports it per task
            out[spec.label] = {"error": f"{type(exc).__name__}: {exc}"}
            continue
        out[spec.label] = _provenance(cls, params)
    return out


def is_foreign(cls) -> bool:
    """Whether ``cls`` comes from outside bayesbench (its records carry their provenance)."""
    return cls.__module__.partition(".")[0] != "bayesbench"


def model_provenance(model) -> dict:
    """``{"class", "distribution", "version", "params"}`` of one task's model, ``params``
    its complete ``get_params(deep=False)`` (the per-task ``random_state`` included)."""
    params = model.get_params(deep=False) if hasattr(model, "get_params") else {}
    return _provenance(type(model), params)


def _provenance(cls, params: dict) -> dict:
    distribution, version = distribution_of(cls)
    out = {"class": f"{cls.__module__}.{cls.__qualname__}", "distribution": distribution,
           "version": version, "params": _plain(params)}
    if distribution is None:
        # No version names the code of a module of no distribution (one beside the config):
        # its file's checksum does, so that an edit between two sessions shows.
        out["source_sha256"] = source_sha256(cls)
    return out


def source_sha256(cls) -> str | None:
    """The SHA-256 of the file of the module that defines ``cls`` (None when it has none:
    a class made in ``__main__`` of an interactive session, or in a zip archive)."""
    path = getattr(sys.modules.get(cls.__module__), "__file__", None)
    if not path or not os.path.isfile(path):
        return None
    stat = os.stat(path)
    return _file_sha256(os.path.realpath(path), stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=64)
def _file_sha256(path: str, size: int, mtime_ns: int) -> str:
    """One file's SHA-256, read again only when its size or time changes (each task of a
    run records the class's)."""
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _plain(params: dict) -> dict:
    """``params`` as JSON keeps them: a value JSON cannot hold (an estimator) as its repr."""
    out = {}
    for name, value in params.items():
        try:
            json.dumps(value, allow_nan=True)
            out[name] = value
        except (TypeError, ValueError):
            out[name] = repr(value)
    return out


def recorded_params(run_dir) -> dict:
    """``{label: params}`` of a result directory, as its last session that recorded them
    did (empty for a directory written before they were recorded)."""
    try:
        env = json.loads((Path(run_dir) / "environment.json").read_text())
    except (OSError, ValueError):
        return {}
    for session in reversed(env.get("sessions") or []):
        classifiers = session.get("classifiers") if isinstance(session, dict) else None
        if isinstance(classifiers, dict):
            return {label: info["params"] for label, info in classifiers.items()
                    if isinstance(info, dict) and isinstance(info.get("params"), dict)}
    return {}
