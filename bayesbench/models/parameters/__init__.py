"""Parameter learning beyond additive smoothing: attribute weightings (AWNB, MANB, WANBIA)
and the decision trees AWNB reads its weights from. Imports only :mod:`..core`."""

__all__ = ["decision_tree", "estimators", "hdp", "hdp_kernel", "weighting"]
