"""One module per learner family: the augmented naive Bayes estimator (:mod:`.anb`) and the
learners built on it (naive Bayes, TAN, kDB, AODE, MAP), and the continuous family
(Gaussian, k-naive). A learner imports :mod:`..core` and :mod:`..parameters`, never a search."""
