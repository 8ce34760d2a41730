"""The classifier registry: names, lazy classes, errors that list what exists."""
from pathlib import Path

import pytest

import bayesbench
from bayesbench.errors import ClassifierError
from bayesbench.models.registry import classifier_class

BRIEF_NAMES = {"nb", "map", "tan", "ddr_tan", "kdb", "aode", "ande", "gnb", "full_bayes",
               "linear_full_bayes", "knaive", "stan", "ffss", "fss", "bsej", "asb",
               "tan_hc", "tan_hcsp", "kdb_hc", "fssj", "skdb", "eskdb", "nb_onehot"}
DISCRETE_OWN = ["nb", "map", "tan", "ddr_tan", "kdb", "aode", "ande", "skdb", "eskdb"]


def test_every_agreed_name_is_listed():
    # The brief's names stay; a new learner is one registry line, not an edit here too.
    assert BRIEF_NAMES <= set(bayesbench.list_classifiers())
    assert bayesbench.list_classifiers() == sorted(bayesbench.list_classifiers())


def test_every_registered_learner_has_its_row_in_the_classifiers_page():
    page = (Path(__file__).resolve().parents[2] / "docs" / "classifiers.md").read_text()
    # A row of a table (| `name` |) or an item of a list (- `name`,) of its own.
    for name in bayesbench.list_classifiers():
        assert f"\n| `{name}` |" in page or f"\n- `{name}`," in page, name


@pytest.mark.parametrize("name", DISCRETE_OWN)
def test_discrete_classes_follow_the_estimator_conventions(name):
    cls = classifier_class(name)
    assert cls.input_kind == "discrete"
    model = bayesbench.make_classifier(name)
    assert set(model.get_params()) == set(cls._param_names())
    assert repr(model).startswith(cls.__name__ + "(")


def test_make_classifier_sets_parameters():
    model = bayesbench.make_classifier("kdb", k=3, alpha=0.5)
    assert model.get_params() == {"alpha": 0.5, "k": 3, "weights": None, "estimator": "laplace",
                                  "iterations": 1000, "tying": "level", "random_state": None,
                                  "missing": "skip", "l2": 0.0, "max_iter": 1000, "tol": 1e-4}


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

    from bayesbench.models.learners.gaussian import GaussianNB

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


# ---------------------------------------------------------------- open classifiers
def test_an_import_path_names_any_class_and_its_parameters_are_checked():
    from sklearn.linear_model import LogisticRegression

    model = bayesbench.make_classifier("sklearn.linear_model:LogisticRegression", C=0.5)
    assert type(model) is LogisticRegression and model.C == 0.5
    with pytest.raises(ClassifierError, match="has no parameter") as unknown:
        bayesbench.make_classifier("sklearn.linear_model:LogisticRegression", depth=2)
    assert unknown.value.parameter == "depth"
    # scikit-learn's own check of the value, before any fit
    with pytest.raises(ClassifierError, match="'C' parameter of LogisticRegression") as bad:
        bayesbench.make_classifier("sklearn.linear_model:LogisticRegression", C=-1)
    assert bad.value.parameter == "C"


@pytest.mark.parametrize("name, fragments", [
    ("no_such_package.models:Clf", ["cannot import classifier 'no_such_package.models:Clf'",
                                    "on host", "no module named 'no_such_package'"]),
    ("sklearn.tree:DecisionTreeClasifier", ["sklearn.tree has no attribute "
                                            "'DecisionTreeClasifier'",
                                            "did you mean 'DecisionTreeClassifier'"]),
    ("helpers:NoFit", ["'helpers:NoFit' is not a classifier: NoFit has no fit method"]),
    ("collections:OrderedDict", ["OrderedDict has no fit and no predict method"]),
    ("os:path", ["'os:path' is not a class but module"]),
    ("sklearn.tree:", ["is not an import path; expected package.module:Class"]),
])
def test_a_path_that_is_no_classifier_is_one_line_naming_it(name, fragments):
    with pytest.raises(ClassifierError) as err:
        bayesbench.make_classifier(name)
    message = str(err.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, message


def test_a_constructor_that_raises_is_one_line():
    with pytest.raises(ClassifierError, match=r"NeedsArgument\(...\) raised TypeError"):
        bayesbench.make_classifier("helpers:NeedsArgument")


def test_unknown_names_suggest_the_nearest_and_the_path_form():
    with pytest.raises(ClassifierError) as err:
        bayesbench.make_classifier("tann")
    assert "(did you mean tan, stan, tan_ld?)" in str(err.value)
    assert "package.module:Class" in str(err.value)


def test_an_entry_point_names_a_classifier(oner_plugin):
    from bayesbench.models.registry import classifier_names, entry_point_classifiers

    assert entry_point_classifiers() == {"oner": "bayesbench_oner:OneR"}
    assert classifier_names() == bayesbench.list_classifiers() + ["oner"]
    model = bayesbench.make_classifier("oner", alpha=0.5)
    assert type(model).__module__ == "bayesbench_oner" and model.alpha == 0.5
    # The built-in names stay the built-in learners alone (scikit-learn's checks run over them).
    assert "oner" not in bayesbench.list_classifiers()


def test_input_kind_defaults():
    from bayesbench.models.registry import default_input

    assert default_input(classifier_class("nb")) == "codes"
    assert default_input(classifier_class("gnb")) == "numeric"
    assert default_input(classifier_class("sklearn.tree:DecisionTreeClassifier")) == "onehot"

    class Odd:
        input_kind = "pixels"

    with pytest.raises(ClassifierError, match="declares input_kind = 'pixels'; expected one of "
                                              "codes, onehot, numeric, frame"):
        default_input(Odd)


def test_classifier_info_reads_signature_constraints_and_docstring():
    from bayesbench.models.registry import classifier_info

    info = classifier_info("tan")
    assert info.source == "built-in" and info.input == "codes"
    assert info.defaults == {"alpha": "1.0", "root": "0", "criterion": "'cmi'", "weights": "None",
                             "estimator": "'laplace'", "iterations": "1000",
                             "tying": "'level'", "random_state": "None", "missing": "'skip'",
                             "l2": "0.0", "max_iter": "1000", "tol": "0.0001"}
    assert info.constraints["alpha"] == "a number >= 0"
    assert info.constraints["missing"] == "one of 'exact', 'skip'"
    assert info.summary.startswith("Tree-augmented naive Bayes") and "Parameters" in info.doc
    path = classifier_info("sklearn.tree:DecisionTreeClassifier")
    assert path.source == "import path" and path.defaults["criterion"] == "'gini'"


# ------------------------------------------- classes built on scikit-learn's bases (issue 34, class 5)

_OWN_CLASSES = '''
import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.utils._param_validation import Interval
from numbers import Real


class Majority(ClassifierMixin, BaseEstimator):
    """No _parameter_constraints: scikit-learn's check raised AttributeError."""
    def __init__(self, smooth=1.0):
        self.smooth = smooth
    def fit(self, X, y):
        self.classes_, counts = np.unique(y, return_counts=True)
        self.top_ = self.classes_[np.argmax(counts)]
        return self
    def predict(self, X):
        return np.full(len(X), self.top_)


class Scale(TransformerMixin, BaseEstimator):
    def __init__(self, by=1.0):
        self.by = by
    def fit(self, X, y=None):
        return self
    def transform(self, X):
        return np.asarray(X, dtype=float) * self.by


class Declared(Majority):
    _parameter_constraints = {"smooth": [Interval(Real, 0, None, closed="left")]}


class Unstored(Declared):
    """Declares constraints but keeps its parameter under another name."""
    def __init__(self, smooth=1.0):
        self._smooth = smooth
'''


@pytest.fixture
def own_classes(tmp_path, monkeypatch):
    (tmp_path / "own_classes.py").write_text(_OWN_CLASSES)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_classes_on_scikit_learn_s_bases_without_constraints_pass_the_check(own_classes):
    from bayesbench.config import parse_config

    cfg = parse_config({"name": "own", "datasets": ["iris"], "classifiers": [
        {"name": "own_classes:Majority", "params": {"smooth": -3}},
        {"name": "gnb", "steps": [{"name": "own_classes:Scale", "params": {"by": 2.0}}]}]},
        base_dir=own_classes)
    assert [c.label for c in cfg.experiment.classifiers] == ["Majority", "gnb"]
    # A class that declares its constraints is still held to them, and one whose check
    # fails another way is one line naming it.
    with pytest.raises(ClassifierError, match="The 'smooth' parameter of Declared") as info:
        bayesbench.make_classifier("own_classes:Declared", smooth=-3)
    assert info.value.parameter == "smooth"
    with pytest.raises(ClassifierError, match=r"^Unstored: checking its parameters raised "
                                              r"AttributeError: .*smooth"):
        bayesbench.make_classifier("own_classes:Unstored")
