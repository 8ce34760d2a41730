"""scikit-learn's estimator checks over every registered classifier.

Each check that fails is listed below with the property of the model that makes it fail;
the listed ones are run as strict expected failures, so that an entry that stops failing
(or a learner missing from the list) fails this test and the list stays true.
"""
import pytest

import bayesbench
from bayesbench.models.registry import classifier_class
from helpers import run_estimator_check

sklearn = pytest.importorskip("sklearn")
from sklearn.utils.estimator_checks import parametrize_with_checks  # noqa: E402

EVERY_LEARNER = {
    "check_estimators_unfitted":
        "predict before fit raises bayesbench's NotFittedError (an AttributeError, as "
        "scikit-learn's is), not scikit-learn's own class: bayesbench does not import "
        "scikit-learn at run time",
    "check_dtype_object":
        "a non-numeric object in X (a dict) is bayesbench's one-line ClassifierError, a "
        "ValueError, not numpy's TypeError",
    "check_supervised_y_2d":
        "a column-vector y is refused ('y must be one-dimensional'), not ravelled with "
        "scikit-learn's DataConversionWarning",
}
DISCRETE = {
    **EVERY_LEARNER,
    "check_estimators_empty_data_messages":
        "X with zero attributes fits the class prior alone (where FSS starts, what FFSS "
        "leaves when no test rejects); zero rows is refused",
    "check_fit_non_negative":
        "-1 is the code of a missing value, so X = -1 is accepted; codes below -1 are "
        "refused ('Negative values in data')",
}
CONTINUOUS = EVERY_LEARNER
# Mixed input (kernel_nb: numbers with NaN missing, categorical frame columns) fails no other.
MIXED = EVERY_LEARNER
# The expected failures follow from a learner's input kind, so a new learner needs no entry
# here: being strict, they fail the day a learner passes one of them, and the lists stay true.
KIND_FAILURES = {"discrete": DISCRETE, "continuous": CONTINUOUS, "mixed": MIXED}


def test_every_registered_learner_declares_a_kind_with_its_expected_failures():
    for name in bayesbench.list_classifiers():
        assert classifier_class(name).input_kind in KIND_FAILURES, name


# The checks test conventions, not accuracy: ESKDB's sampler runs 50 sweeps here instead of its
# default 1000 (a minute of the suite's longest file), the same checks, the same assertions.
CHECK_PARAMS = {"eskdb": {"iterations": 50}}
# Parameter estimators that change how a learner fits (not only its numbers): checked too,
# L-BFGS stopped at 50 iterations (the checks' separable data would run it to 1000).
CLL = {"estimator": "cll", "max_iter": 50}
VARIANTS = [("nb", CLL), ("tan", CLL), ("kdb", CLL)]


@parametrize_with_checks([bayesbench.make_classifier(name, **CHECK_PARAMS.get(name, {}))
                          for name in bayesbench.list_classifiers()]
                         + [bayesbench.make_classifier(name, **params)
                            for name, params in VARIANTS])
def test_scikit_learn_estimator_check(estimator, check):
    check_name = getattr(check, "func", check).__name__
    run_estimator_check(check, estimator,
                        KIND_FAILURES[type(estimator).input_kind].get(check_name))
