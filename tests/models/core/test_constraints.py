"""Declared hyper-parameter constraints: their semantics, the one-line message, and that every
registered learner declares each of its parameters once and is checked at construction and fit."""
import inspect
import math
from numbers import Integral, Real

import numpy as np
import pytest

import bayesbench
from bayesbench.errors import ClassifierError
from bayesbench.models.registry import classifier_class
from bayesbench.models.core.constraints import Interval, StrOptions, check_parameter, describe

NAMES = bayesbench.list_classifiers()


@pytest.mark.parametrize("constraint, inside, outside", [
    (Interval(Real, 0, None, closed="left"), [0, 0.0, 1, 2.5, np.float32(3), np.int64(7)],
     [-1, -1e-300, math.inf, math.nan, True, np.bool_(False), "1", None]),
    (Interval(Real, 0, 1, closed="right"), [1, 0.5, 1e-300], [0, 0.0, 1.0000001, "0.5"]),
    (Interval(Real, 0, 1, closed="left"), [0, 0.999], [1, 1.0]),
    (Interval(Real, 0, None, closed="neither"), [1e-300, 5], [0, -0.0]),
    (Interval(Integral, 2, None, closed="left"), [2, np.int32(9), 2 ** 63 - 1],
     [1, 2.0, 2.5, True, np.bool_(True), 2 ** 63, 10 ** 30]),
    (Interval(Integral, None, 0, closed="right"), [-2 ** 63], [-2 ** 63 - 1]),
    (Interval(Integral, 0, 3, closed="both"), [0, 3], [-1, 4]),
    (StrOptions({"a", "b"}), ["a", "b"], ["c", "A", None, 1]),
])
def test_constraints_admit_exactly_what_they_say(constraint, inside, outside):
    for value in inside:
        check_parameter("Learner", "p", value, [constraint])
    for value in outside:
        with pytest.raises(ClassifierError):
            check_parameter("Learner", "p", value, [constraint])


def test_descriptions_read_as_the_constraints():
    assert describe([Interval(Real, 0, None, closed="left")]) == "a number >= 0"
    assert describe([Interval(Real, 0, None, closed="neither")]) == "a number > 0"
    assert describe([Interval(Real, 0, 1, closed="right")]) == "a number in (0, 1]"
    assert describe([Interval(Real, 0, 1, closed="left")]) == "a number in [0, 1)"
    assert describe([Interval(Integral, 0, 5, closed="both")]) == "an integer in 0..5"
    assert describe([Interval(Integral, 0, None, closed="left"), None]) == \
        "None or an integer >= 0"
    assert describe(["boolean"]) == "True or False"
    assert describe([StrOptions({"fitted", "marginal"})]) == "one of 'fitted', 'marginal'"
    assert describe([None, Integral, str]) == "None, an integer or a string"


def test_the_message_is_one_line_naming_learner_parameter_rule_and_value():
    expected = "TAN: parameter 'alpha' must be a number >= 0, got -1"
    with pytest.raises(ClassifierError) as at_construction:
        bayesbench.make_classifier("tan", alpha=-1)
    model = bayesbench.make_classifier("tan").set_params(alpha=-1)
    with pytest.raises(ClassifierError) as at_fit:
        model.fit(np.array([[0, 1], [1, 0]]), [0, 1])
    for info in (at_construction, at_fit):
        assert str(info.value) == expected
        assert info.value.parameter == "alpha"
    with pytest.raises(ClassifierError) as numpy_scalar:
        bayesbench.make_classifier("kdb", k=np.float64(1.5))
    assert str(numpy_scalar.value) == "KDB: parameter 'k' must be an integer >= 0, got 1.5"


@pytest.mark.parametrize("name", NAMES)
def test_every_parameter_is_declared_once_and_its_default_is_valid(name):
    cls = classifier_class(name)
    assert set(cls._parameter_constraints) == set(cls._param_names())
    bayesbench.make_classifier(name)   # the defaults pass their own constraints


@pytest.mark.parametrize("name", NAMES)
def test_hyper_parameters_and_fit_options_are_keyword_only(name):
    cls = classifier_class(name)
    init = inspect.signature(cls.__init__).parameters.values()
    assert all(p.kind is p.KEYWORD_ONLY for p in init if p.name != "self")
    fit = inspect.signature(cls.fit).parameters
    assert list(fit)[:3] == ["self", "X", "y"]
    assert fit["cardinalities"].kind is fit["n_classes"].kind is inspect.Parameter.KEYWORD_ONLY
    if cls._param_names():
        with pytest.raises(TypeError):
            cls(1.0)


@pytest.mark.parametrize("name", NAMES)
def test_a_boolean_is_never_taken_for_a_number(name):
    # kdb took k=True as 1 while tan refused root=True: both refuse it now.
    cls = classifier_class(name)
    numeric = [p for p, constraints in cls._parameter_constraints.items()
               if any(isinstance(c, Interval) for c in constraints)
               and "boolean" not in constraints]
    for parameter in numeric:
        with pytest.raises(ClassifierError, match=f"parameter '{parameter}'.*got True"):
            bayesbench.make_classifier(name, **{parameter: True})


def test_a_check_that_needs_the_data_reads_like_a_declared_one():
    X = np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]])
    with pytest.raises(ClassifierError) as info:
        bayesbench.make_classifier("tan", root=7).fit(X, [0, 1, 1])
    assert str(info.value) == "TAN: parameter 'root' must be an attribute index in 0..2, got 7"
    assert info.value.parameter == "root"


@pytest.mark.parametrize("name, params, words", [
    ("map", {"alpha": "abc"}, "alpha"),
    ("map", {"alpha": None}, "alpha"),
    ("map", {"alpha": float("inf")}, "alpha"),
    ("aode", {"alpha": "abc"}, "alpha"),
    ("aode", {"alpha": None}, "alpha"),
    ("nb", {"alpha": -1}, "alpha"),
    ("nb", {"log": "no"}, "log"),
    ("tan", {"root": "a"}, "root"),
    ("tan", {"root": 1.5}, "root"),
    ("ddr_tan", {"root": 7}, "root"),
    ("fss", {"random_state": "a"}, "random_state"),
    ("bsej", {"random_state": -1}, "random_state"),
    ("asb", {"random_state": 1.5}, "random_state"),
    ("full_bayes", {"reg_param": "a"}, "reg_param"),
    ("full_bayes", {"reg_param": 2}, "reg_param"),
])
def test_bad_hyper_parameters_are_one_line_errors_naming_the_parameter(name, params, words):
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, (40, 3))
    y = rng.integers(0, 2, 40)
    with pytest.raises(ClassifierError, match=words) as info:
        model = bayesbench.make_classifier(name, **params)
        if model.input_kind == "discrete":
            model.fit(X, y, cardinalities=[3, 3, 3], n_classes=2)
        else:
            model.fit(X + rng.normal(size=X.shape), y)
    assert "\n" not in str(info.value)


def test_knaive_strong_must_be_a_boolean():
    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(30, 3)), rng.integers(0, 2, 30)
    with pytest.raises(ClassifierError, match="'strong' must be True or False"):
        bayesbench.make_classifier("knaive", strong="false").fit(X, y)
    assert bayesbench.make_classifier("knaive", strong=np.bool_(True)).fit(X, y) \
        .structure_info_["strong"] is True


@pytest.mark.parametrize("name", NAMES)
def test_an_integer_beyond_64_bits_is_refused_by_the_config_check(name, tmp_path):
    """A run's records keep each parameter in a 64-bit column: ``random_state: 1e23`` of
    ``bayesnet`` (or ``exact_limit: 1e21`` of ``kernel_nb``) passed the check, every task ran,
    and then writing the summary raised pyarrow's OverflowError as a traceback."""
    from bayesbench.config import ConfigError, parse_config
    cls = classifier_class(name)
    for param, constraints in cls._parameter_constraints.items():
        if not any(isinstance(c, Interval) and c.kind is Integral for c in constraints):
            continue
        raw = {"name": "t", "datasets": ["iris"], "metrics": ["accuracy"],
               "classifiers": [{"name": name, "params": {param: 2 ** 63}}]}
        with pytest.raises(ConfigError, match=f"{param}.*within 64 bits.*got {2 ** 63}"):
            parse_config(raw, base_dir=tmp_path)
