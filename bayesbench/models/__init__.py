"""Classifiers: the discrete augmented naive Bayes family and the continuous learners.

Discrete learners share three rooms: :mod:`.structure` (what a learner
returns), :mod:`.counting` (vectorised parameter learning) and
:mod:`.inference` (log-space prediction); :mod:`.anb` ties them into an
estimator. Every learner declares its hyper-parameters' constraints once
(:mod:`.validation`) and checks its input in one place (:mod:`.input`);
:mod:`.registry` names every classifier for configurations.
"""
