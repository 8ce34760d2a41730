"""The machinery every discrete learner shares: structures, counting, sufficient statistics,
log-space inference, input checks, parameter constraints, the estimator base class and model
scores. Imports nothing from the other rooms of :mod:`bayesbench.models`."""

__all__ = ["base", "constraints", "counting", "export", "inference", "input_checks",
           "prefix_counts", "scores", "structure", "sufficient"]
