"""One module per learner family: the augmented naive Bayes estimator (:mod:`.anb`) and the
learners built on it (naive Bayes, TAN, kDB, AODE, MAP), and the continuous family
(Gaussian, k-naive). A learner imports :mod:`..core` and :mod:`..parameters`, never a search."""

__all__ = ["anb", "ande", "aode", "diagnostics", "gaussian", "kdb", "knaive", "map", "naive_bayes",
           "onehot_nb", "skdb", "tan"]
