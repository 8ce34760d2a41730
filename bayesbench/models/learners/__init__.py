"""One module per learner family: the augmented naive Bayes estimator (:mod:`.anb`) and the
learners built on it (naive Bayes, TAN, kDB, AODE, MAP), and the continuous family
(Gaussian, k-naive), and local discretization (TAN, kDB and AODE that discretize their numeric
attributes given their parents, :mod:`.local_discretization`, with the authors' discretizer
:mod:`.ld_mdlp` and information measures :mod:`.ld_information`). A learner imports
:mod:`..core` and :mod:`..parameters`, never a search."""

__all__ = ["anb", "ande", "aode", "diagnostics", "gaussian", "kdb", "knaive", "ld_information",
           "ld_mdlp", "local_discretization", "map", "naive_bayes", "onehot_nb", "skdb", "tan"]
