"""Every learner setting that sizes work is bounded (docs/limits.md, issue 34 class 1).

A count that a learner loops over or sizes an array by is either declared with an upper
bound (refused by the config check before any work) or capped by the data, where a larger
value is the same model as the cap (and is fitted as that one). ``iterations: 1e9`` of the
HDP estimates, ``n_estimators: 1e9`` of ESKDB and ``k_max: 1e6`` of SKDB ran without end.
"""
from numbers import Integral

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import bayesbench
from bayesbench.config import ConfigError, parse_config
from bayesbench.errors import ClassifierError
from bayesbench.models.core.constraints import Interval
from bayesbench.models.learners.knaive import MAX_EXHAUSTIVE, MAX_RANKED_SUBSETS
from bayesbench.models.learners.local_discretization import MAX_LD_ITERATIONS
from bayesbench.models.learners.skdb import ESKDB, MAX_ESTIMATORS, SKDB
from bayesbench.models.parameters.estimators import MAX_ITERATIONS
from bayesbench.models.registry import classifier_class
from bayesbench.models.search.hill_climbing import TANHC
from bayesbench.models.search.inner_cv import InnerCV
from bayesbench.models.search.wrapper import BSEJ, FSS
from helpers import random_data

HUGE = 10 ** 12

#: The integer parameters without an upper bound, each with why none is needed: a value
#: above what the data can use is the same model as that value, or refused at fit.
CAPPED_BY_THE_DATA = {
    "k": "parents (kdb, kdb_hc: at most the attributes placed before) or naive attributes "
         "(knaive: refused above the attributes)",
    "k_max": "SKDB's sub-models: fitted as min(k_max, attributes - 1)",
    "inner_folds": "the inner CV keeps at most one fold per example",
    "root": "refused at fit unless an attribute's index",
    "rank": "refused above the subsets of size k, and above MAX_RANKED_SUBSETS of them",
    "min_frequency": "a threshold on counts",
    "subsumption": "a threshold on counts",
    "random_state": "a seed",
    "exact_limit": "kernel_nb: the largest window summed as Weka sums it; a window never holds "
                   "more kernels than the training values",
    "min_length": "tan_ld, kdb_ld, aode_ld: MDLP splits no interval shorter; above the training "
                  "rows nothing is cut, the model of that many",
    "max_depth": "tan_ld, kdb_ld, aode_ld: MDLP's recursion is never deeper than the training "
                 "rows, so a larger depth is the model of that many",
    "max_parents": "bayesnet: a node has at most the other nodes as parents, so a larger value "
                   "is the model of that many; refused before counting when the largest table "
                   "it allows would exceed max_table_cells",
}


def _unbounded_integers():
    for name in bayesbench.list_classifiers():
        cls = classifier_class(name)
        for param, constraints in getattr(cls, "_parameter_constraints", {}).items():
            for c in constraints:
                if isinstance(c, Interval) and c.kind is Integral and c.right is None:
                    yield name, param


def test_every_integer_without_an_upper_bound_is_capped_by_the_data():
    # a new count a learner loops over must be declared with its bound, or listed above
    unlisted = sorted({(n, p) for n, p in _unbounded_integers() if p not in CAPPED_BY_THE_DATA})
    assert unlisted == []


@pytest.mark.parametrize("name,param,bound", [
    ("nb", "iterations", MAX_ITERATIONS), ("tan", "iterations", MAX_ITERATIONS),
    ("kdb", "iterations", MAX_ITERATIONS), ("skdb", "iterations", MAX_ITERATIONS),
    ("eskdb", "iterations", MAX_ITERATIONS), ("eskdb", "n_estimators", MAX_ESTIMATORS),
    ("knaive", "exhaustive_limit", MAX_EXHAUSTIVE),
    ("tan_ld", "max_iterations", MAX_LD_ITERATIONS), ("aode_ld", "max_iterations",
                                                    MAX_LD_ITERATIONS)])
def test_declared_bounds_admit_the_bound_and_refuse_one_more(name, param, bound):
    assert bayesbench.make_classifier(name, **{param: bound}).get_params()[param] == bound
    with pytest.raises(ClassifierError, match=rf"parameter '{param}' must be an integer in "
                                              rf"\d+\.\.{bound}, got {bound + 1}"):
        bayesbench.make_classifier(name, **{param: bound + 1})


def test_the_config_check_refuses_the_hanging_settings_before_any_work(tmp_path):
    (tmp_path / "toy.csv").write_text("a,b,class\n1,x,p\n2,y,q\n3,x,p\n4,y,q\n")
    with pytest.raises(ConfigError) as info:
        parse_config({"name": "h", "datasets": [str(tmp_path / "toy.csv")], "classifiers": [
            {"name": "skdb", "params": {"estimator": "hdp", "iterations": 10 ** 9}},
            {"name": "eskdb", "params": {"n_estimators": 10 ** 9}},
            {"name": "knaive", "params": {"exhaustive_limit": 10 ** 9}}]}, base_dir=tmp_path)
    assert set(dict(info.value.problems)) == {"classifiers[0].params.iterations",
                                              "classifiers[1].params.n_estimators",
                                              "classifiers[2].params.exhaustive_limit"}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name,params", [
    ("kdb", {"k": HUGE}), ("kdb_hc", {"k": HUGE}), ("skdb", {"k_max": HUGE}),
    ("eskdb", {"k_max": HUGE, "n_estimators": 2, "iterations": 10}),
    ("fss", {"inner_folds": HUGE}), ("bsej", {"inner_folds": HUGE}),
    ("asb", {"inner_folds": HUGE}), ("tan_hc", {"inner_folds": HUGE}),
    ("kdb_hc", {"inner_folds": HUGE}), ("fssj", {"inner_folds": HUGE}),
    ("aode", {"min_frequency": HUGE}), ("ande", {"subsumption": HUGE})])
def test_a_huge_capped_setting_fits_as_its_cap(name, params):
    X, y, cards, k = random_data(3, n=40)
    model = bayesbench.make_classifier(name, **params).fit(X, y, cardinalities=cards)
    assert model.predict_proba(X).shape == (40, k)


@pytest.mark.parametrize("name,param", [("tan", "root"), ("ddr_tan", "root")])
def test_a_huge_index_is_one_line_at_fit(name, param):
    X, y, cards, _ = random_data(3, n=40)
    with pytest.raises(ClassifierError, match=param):
        bayesbench.make_classifier(name, **{param: HUGE}).fit(X, y, cardinalities=cards)


def test_knaive_refuses_a_rank_over_more_subsets_than_its_bound_before_listing_them():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 26)), rng.integers(0, 2, 60)
    # C(26, 12) = 9,657,700 subsets: listed one by one, they took minutes and gigabytes
    with pytest.raises(ClassifierError, match=r"parameter 'rank' must be 0 when there are "
                                              r"more than 1,048,576 subsets .*9,657,700"):
        bayesbench.make_classifier("knaive", k=12, rank=1, exhaustive_limit=30).fit(X, y)
    assert MAX_RANKED_SUBSETS == 2 ** 20


def _same_skdb(a, b, X):
    for u, v in zip(a.members_, b.members_, strict=True):
        assert (u.order, u.s, u.k) == (v.order, v.s, v.k)
        assert np.array_equal(u.losses, v.losses)
    assert np.array_equal(a.predict_proba(X), b.predict_proba(X))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), m=st.integers(1, 5),
       extra=st.one_of(st.integers(0, 3), st.integers(10 ** 6, HUGE)),
       loss=st.sampled_from(["rmse", "zero_one"]))
def test_skdb_k_max_beyond_the_attributes_is_the_model_of_m_minus_1(seed, m, extra, loss):
    X, y, cards, _ = random_data(seed, n=50, cards=(3, 2, 4, 3, 2)[:m])
    capped = SKDB(k_max=m - 1, loss=loss).fit(X, y, cardinalities=cards)
    larger = SKDB(k_max=m - 1 + extra, loss=loss).fit(X, y, cardinalities=cards)
    _same_skdb(capped, larger, X)
    # the pass is sized by the deepest sub-model the data has, whatever k_max says
    assert larger.structure_.info["losses"].shape == (m + 1, m)


def test_eskdb_k_max_beyond_the_attributes_is_the_model_of_m_minus_1():
    X, y, cards, _ = random_data(5, n=60)
    kw = {"n_estimators": 3, "iterations": 20, "random_state": 4}
    capped = ESKDB(k_max=4, **kw).fit(X, y, cardinalities=cards)
    _same_skdb(capped, ESKDB(k_max=HUGE, **kw).fit(X, y, cardinalities=cards), X)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), n=st.integers(2, 30),
       extra=st.one_of(st.integers(0, 5), st.integers(10 ** 6, HUGE)))
def test_more_inner_folds_than_examples_are_leave_one_out(seed, n, extra):
    X, y, cards, k = random_data(seed, n=n)
    loo = InnerCV(X, y, cards, k, 1.0, n, np.random.default_rng(seed))
    more = InnerCV(X, y, cards, k, 1.0, n + extra, np.random.default_rng(seed))
    assert more.n_folds == n
    assert np.array_equal(loo.folds, more.folds)
    assert np.array_equal(loo.log_prior, more.log_prior)


@pytest.mark.parametrize("cls", [FSS, BSEJ, TANHC])
def test_a_wrapper_with_more_inner_folds_than_examples_is_its_leave_one_out(cls):
    X, y, cards, _ = random_data(11, n=35)
    loo = cls(inner_folds=35, random_state=2).fit(X, y, cardinalities=cards)
    more = cls(inner_folds=HUGE, random_state=2).fit(X, y, cardinalities=cards)
    assert loo.structure_.nodes == more.structure_.nodes
    assert loo.structure_.info["trace"] == more.structure_.info["trace"]
    assert np.array_equal(loo.predict_proba(X), more.predict_proba(X))
