"""Measures from counts that learners and hypothesis tests share: information, independence
tests, penalised likelihood scores, the bound on a table of counts, and the one tie tolerance.

A layer below :mod:`bayesbench.models`, :mod:`bayesbench.preprocess` and
:mod:`bayesbench.stats` (it imports only :mod:`bayesbench.errors`), so that a learner can
use a G-test or the tie rule without importing the hypothesis tests' package, and the two
never disagree on when two numbers tie.
"""

__all__ = ["codes", "independence", "information", "likelihood_scores", "ties"]
