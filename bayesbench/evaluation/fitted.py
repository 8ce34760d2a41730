"""What a task's record keeps of its fitted model: its model scores, its structure in one line,
its learned network to draw, and its network's text in the export formats (``save_networks``)."""
from __future__ import annotations

import json

from ..errors import ClassifierError
from ..models.core.export import NETWORK_FORMATS
from ..preprocess.discretize import cut_point_table

__all__ = ["NETWORKS", "CUTS_SUFFIX", "model_scores", "network", "structure_text",
           "network_files"]


def model_scores(clf, X, y) -> dict:
    """The :data:`~.metrics.MODEL_SCORES` of a fitted model on its training rows; those it
    does not define (no ``model_scores`` method, or a likelihood under attribute weights)
    are left out, so that tables show them empty rather than as a number."""
    if not callable(getattr(clf, "model_scores", None)):
        return {}
    s = clf.model_scores(X, y)
    values = {"loglik": s.log_likelihood, "cll": s.conditional_log_likelihood,
              "n_parameters": float(s.n_free_parameters), "aic": s.aic, "bic": s.bic}
    return {k: v for k, v in values.items() if v is not None}


def network(clf, class_name: str):
    """A learned structure as record data (``class``, ``attributes``, ``nodes`` as
    ``[attributes, parents]`` index lists; a general network's also ``augmented: false``,
    the ``class_children`` node indices and the ``class_parents`` attribute indices), or
    None when there is none to draw: no ``structure_``, or plain naive Bayes over every
    attribute (naive Bayes, AODE, ``bayesnet``'s default)."""
    structure = getattr(clf, "structure_", None)
    if not hasattr(structure, "nodes") or (
            not structure.arcs() and not structure.dropped and not structure.class_parents
            and all(len(n.attributes) == 1 and n.class_parent for n in structure.nodes)):
        return None
    out = {"class": class_name, "attributes": list(structure.names()),
           "nodes": [[list(n.attributes), list(n.parents)] for n in structure.nodes]}
    if not structure.augmented:
        out.update(augmented=False, class_parents=list(structure.class_parents),
                   class_children=[k for k, n in enumerate(structure.nodes) if n.class_parent])
    return out


def structure_text(clf) -> str:
    """The one-line summary of a fitted model's structure a record keeps (``structure``)."""
    structure = getattr(clf, "structure_", None)
    summary = getattr(clf, "structure_summary", None)
    return (structure.summary() if structure is not None else
            summary() if callable(summary) else "")


# A record's fitted networks on their way to the calling process, which writes them into
# the result directory and drops the field (:meth:`~.rundir.RunDirectory.keep`).
NETWORKS = "_networks"


# The suffix of the file of a fold's cut points, beside its networks.
CUTS_SUFFIX = ".cuts.json"


def network_files(clf, train, formats, views, preprocess) -> dict:
    """``{file suffix: text}`` of the fitted ``clf``'s Bayesian network in each of ``formats``
    (:data:`~bayesbench.models.core.export.NETWORK_FORMATS`), its variables and states named
    by the training part ``train``'s attributes and values, and of the fold's cut points
    (``views["cuts"]``) when it discretized some attribute; empty for a model that is no
    one network (AODE, Gaussian, other classes; attribute weights)."""
    if not formats or not callable(getattr(clf, "bayesian_network", None)):
        return {}
    try:
        variables = clf.bayesian_network(train.target.name,
                                         [a.categories for a in train.attributes],
                                         train.class_names)
    except ClassifierError:
        return {}
    out = {NETWORK_FORMATS[f][0]: NETWORK_FORMATS[f][1](variables, type(clf).__name__)
           for f in formats}
    cuts = views["cuts"]()
    if cuts:
        out[CUTS_SUFFIX] = json.dumps({"method": preprocess.discretize, "scope": preprocess.scope,
                                       "attributes": cut_point_table(cuts)}, indent=1) + "\n"
    return out
