"""The one tie tolerance: scores that differ only by floating-point noise compare equal.

Shared by the hypothesis tests of :mod:`bayesbench.stats` (ranks, signed ranks,
win/tie/loss) and the learners of :mod:`bayesbench.models` that rank attributes or arcs
(kDB's order, TAN's spanning tree, the decision tree of attribute weighting), so that a
tie is decided the same way wherever two numbers are compared.
"""
from __future__ import annotations

import numpy as np

# Scores that differ only by floating-point noise (0.768 - 0.763 against 0.936 - 0.931,
# or one mean summed in another order) must tie; 12 decimals is far below any
# difference a classifier comparison can resolve. Every test and table that decides
# whether two scores tie rounds them with this.
TIE_DECIMALS = 12


def tie_safe(x) -> np.ndarray:
    """``x`` rounded to :data:`TIE_DECIMALS` decimals: equal scores compare equal."""
    return np.round(x, TIE_DECIMALS)
