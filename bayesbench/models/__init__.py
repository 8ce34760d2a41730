"""Classifiers: the discrete augmented naive Bayes family and the continuous learners.

Four rooms, imports pointing down (the import contract in ``pyproject.toml``):

- :mod:`.search`: learners defined by a search over structures (selective, wrapper and
  hill-climbing learners) and the inner cross-validation that scores candidates;
- :mod:`.learners`: one module per learner family, on the augmented naive Bayes
  estimator of :mod:`.learners.anb`;
- :mod:`.parameters`: parameter learning beyond additive smoothing (attribute weights);
- :mod:`.core`: structures, counting, sufficient statistics, log-space inference, input
  checks, parameter constraints, the estimator base class.

:mod:`.registry` names every classifier for configurations. The learners' classes are
also reachable here by their class names (``bayesbench.models.TAN``), wherever their
module lives; ``__all__`` names the rooms (a learner's class is not listed twice: the registry
is the one list of them).
"""

__all__ = ["registry", "pipeline", "core", "learners", "parameters", "search"]


def __getattr__(name):
    # Imported lazily, through the registry's table, so that `import bayesbench.models`
    # costs nothing and the table stays the one place that says where a learner lives.
    from .registry import builtin_class

    cls = builtin_class(name)
    if cls is None:
        raise AttributeError(f"module 'bayesbench.models' has no attribute {name!r}")
    return cls
