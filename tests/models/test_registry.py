"""The classifier registry: names, lazy classes, errors that list what exists."""
import pytest

import bayesbench
from bayesbench.errors import ClassifierError
from bayesbench.models.registry import classifier_class

BRIEF_NAMES = {"nb", "map", "tan", "ddr_tan", "kdb", "aode", "gnb", "full_bayes",
               "linear_full_bayes", "knaive", "stan", "ffss", "fss", "bsej", "asb",
               "tan_hc", "tan_hcsp", "kdb_hc", "fssj"}
DISCRETE_OWN = ["nb", "map", "tan", "ddr_tan", "kdb", "aode"]


def test_every_agreed_name_is_listed():
    assert set(bayesbench.list_classifiers()) == BRIEF_NAMES
    assert bayesbench.list_classifiers() == sorted(BRIEF_NAMES)


@pytest.mark.parametrize("name", DISCRETE_OWN)
def test_discrete_classes_follow_the_estimator_conventions(name):
    cls = classifier_class(name)
    assert cls.input_kind == "discrete"
    model = bayesbench.make_classifier(name)
    assert set(model.get_params()) == set(cls._param_names())
    assert repr(model).startswith(cls.__name__ + "(")


def test_make_classifier_sets_parameters():
    model = bayesbench.make_classifier("kdb", k=3, alpha=0.5)
    assert model.get_params() == {"alpha": 0.5, "k": 3, "weights": None}


def test_unknown_name_lists_known_names():
    with pytest.raises(ClassifierError) as err:
        bayesbench.make_classifier("tann")
    message = str(err.value)
    assert "unknown classifier 'tann'" in message
    assert all(name in message for name in BRIEF_NAMES)


def test_unknown_parameter_lists_valid_ones():
    with pytest.raises(ClassifierError,
                       match=r"'tan' has no parameter\(s\) depth; its parameters are: alpha, root"):
        bayesbench.make_classifier("tan", depth=2)
    with pytest.raises(ClassifierError, match="parameters are: alpha, log"):
        bayesbench.make_classifier("nb").set_params(smoothing=1)


@pytest.mark.parametrize("name", bayesbench.list_classifiers())
def test_no_parameter_hides_a_method(name):
    # __init__ stores each parameter on the instance, where it would shadow a method of
    # that name: TAN's bnclassify-style ``score`` hid ``score(X, y)``, the accuracy that
    # scikit-learn's cross_val_score calls.
    cls = classifier_class(name)
    assert [p for p in cls._param_names() if callable(getattr(cls, p, None))] == []


def test_classifier_errors_are_value_errors_as_scikit_learn_expects():
    import numpy as np

    from bayesbench.models.gaussian import GaussianNB

    with pytest.raises(ValueError, match="NaN"):
        GaussianNB().fit(np.array([[np.nan], [1.0]]), np.array([0, 1]))


def test_params_are_checked_without_fitting_for_the_config_layer():
    from bayesbench.models.registry import check_classifier_params

    check_classifier_params("fss", {"alpha": 0.5, "inner_folds": 3, "random_state": 1})
    with pytest.raises(ClassifierError, match="'inner_folds' must be an integer >= 2") as bad:
        check_classifier_params("fss", {"inner_folds": 1})
    assert bad.value.parameter == "inner_folds"
    with pytest.raises(ClassifierError, match="has no parameter") as unknown:
        check_classifier_params("nb", {"log": True, "smoothing": 1})
    assert unknown.value.parameter == "smoothing"
