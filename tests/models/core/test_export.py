"""Every learner whose model is one Bayesian network exports it as BIF and XMLBIF that pgmpy and
pyAgrum read back, and their exact inference of P(class | observed attributes) in it is the
learner's own predict_proba: on 1,000 complete test rows of three UCI data sets, and, with
``missing="exact"``, on rows with missing values (house-votes-84's own, and test rows with
values masked). ``benchmarks/check_network_inference.py`` prints the same comparisons for
every learner, data set and library, with the missing rows in full."""
import doctest
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bayesbench.data import load_dataset, locate_dataset
from bayesbench.errors import ClassifierError
from bayesbench.measures.codes import TableTooLarge, table_limit
from bayesbench.models.core import export
from bayesbench.models.core.export import bif_name, distinct, xml_name
from bayesbench.models.learners.anb import AugmentedNaiveBayes
from bayesbench.models.registry import classifier_class, list_classifiers, make_classifier

# pgmpy and pyAgrum are in the test extra: a reference missing is a failure, not a skip.
import pyagrum as gum  # noqa: E402
from pgmpy.readwrite import XMLBIFReader  # noqa: E402
from peer_inference import GrammarsOnce, pgmpy_bif, pgmpy_posteriors, pyagrum_posteriors  # noqa: E402

# Every built-in learner whose model is one network (nb, tan, kdb, the selective and the
# wrapper learners): the augmented naive Bayes family, read from the registry.
NETWORK_LEARNERS = [n for n in list_classifiers()
                    if issubclass(classifier_class(n), AugmentedNaiveBayes)]
DATASETS = ["car", "nursery", "kr-vs-kp"]
# bayesnet's default is naive Bayes: a general network (the class a parent of some nodes
# only, and on kr-vs-kp with two parents of its own) is what its export has to get right.
PARAMS = {"bayesnet": {"search": "hill_climbing", "max_parents": 2, "initial": "empty"}}
N_TEST, N_TRAIN = 1000, 1500
# pyAgrum's inference costs about a millisecond a row on kr-vs-kp (37 variables): it is
# given the first rows of the test rows here, complete and with a share MASKED of their
# values missing (benchmarks/check_network_inference.py gives it all 1,000 of each).
PYAGRUM_ROWS = {"car": 300, "nursery": 300, "kr-vs-kp": 50}
MASKED = 0.3


def test_the_learners_are_the_ones_the_issue_names():
    assert {"nb", "tan", "kdb", "stan", "ffss", "fss", "bsej", "asb"} <= set(NETWORK_LEARNERS)
    assert "aode" not in NETWORK_LEARNERS and "gnb" not in NETWORK_LEARNERS  # ensembles, Gaussians
    # Each takes the parameter `missing`, declared once (on the base class) and inherited,
    # but bayesnet, which fills a missing value with the training mode (Weka's BayesNet).
    assert "missing" not in make_classifier("bayesnet").get_params()
    for name in set(NETWORK_LEARNERS) - {"bayesnet"}:
        cls = classifier_class(name)
        assert make_classifier(name).get_params()["missing"] == "skip"
        assert cls._parameter_constraints["missing"] is \
            AugmentedNaiveBayes._parameter_constraints["missing"]


def test_the_docstring_examples_of_export():
    result = doctest.testmod(export)
    assert result.attempted and not result.failed


@pytest.fixture(scope="module", params=DATASETS)
def split(request):
    ds = load_dataset(locate_dataset(request.param))
    X = ds.codes()
    assert (X >= 0).all(), "complete rows"
    order = np.random.default_rng(24).permutation(len(X))
    test, train = order[:N_TEST], order[N_TEST:N_TEST + N_TRAIN]
    return ds, X[train], ds.y[train], X[test]


# The models of the module, fitted once for all its tests (the wrappers' fits dominate).
_FITTED: dict = {}


def _fitted(learner, split, **params):
    ds, X, y, _ = split
    params = params or PARAMS.get(learner, {})
    key = (learner, ds.name, tuple(sorted(params.items())))
    if key not in _FITTED:
        _FITTED[key] = make_classifier(learner, **params).fit(
            X, y, cardinalities=ds.cardinalities, n_classes=ds.n_classes,
            feature_names=[a.name for a in ds.attributes])
    return _FITTED[key]


def _exact(model):
    """A copy of the fitted ``model`` that predicts with ``missing="exact"``."""
    import copy

    return copy.copy(model).set_params(missing="exact")


def _masked(X, seed=35):
    X = X.astype(np.int64)
    X[np.random.default_rng(seed).random(X.shape) < MASKED] = -1
    return X


@pytest.mark.parametrize("learner", NETWORK_LEARNERS)
def test_exact_inference_in_the_exported_network_is_predict_proba(learner, split, tmp_path):
    # pgmpy reads the BIF file, pyAgrum the XMLBIF one: its BIF reader keeps probabilities in
    # single precision (aGrUM's grammar reads them into floats), 1e-7 off.
    model = _fitted(learner, split)
    rows = split[3]
    expected = model.predict_proba(rows)
    np.testing.assert_allclose(pgmpy_bif(model.to_bif(tmp_path / "m.bif"), model, rows),
                               expected, rtol=0, atol=1e-9)
    few = rows[:PYAGRUM_ROWS[split[0].name]]
    np.testing.assert_allclose(pyagrum_posteriors(model.to_xmlbif(tmp_path / "m.bifxml"), model, few),
                               expected[:len(few)], rtol=0, atol=1e-9)
    if learner == "bayesnet":  # it fills a missing value with the training mode, as Weka's
        return                 # BayesNet does: no marginal of the network to compare with
    # Rows with missing values: with missing="exact" predict_proba is the network's marginal.
    masked = _masked(few)
    np.testing.assert_allclose(pyagrum_posteriors(tmp_path / "m.bifxml", model, masked),
                               _exact(model).predict_proba(masked), rtol=0, atol=1e-9)


@pytest.fixture(scope="module")
def votes():
    """house-votes-84 with its own missing values (203 of 435 rows), fitted on every row."""
    ds = load_dataset(locate_dataset("house-votes-84"))
    X = ds.codes().astype(np.int64)
    lacking = (X < 0).any(axis=1)
    assert lacking.sum() == 203
    return ds, X, ds.y, X[lacking]


@pytest.mark.parametrize("learner, params", [("kdb", {"k": 2}), ("tan", {}),
                                             ("asb", {"random_state": 0}), ("nb", {})])
def test_pgmpy_and_pyagrum_on_the_missing_values_of_house_votes(learner, params, votes,
                                                                 tmp_path):
    model = _fitted(learner, votes, **params)
    rows = votes[3]
    exact = _exact(model).predict_proba(rows)
    np.testing.assert_allclose(pgmpy_bif(model.to_bif(tmp_path / "m.bif"), model, rows),
                               exact, rtol=0, atol=1e-9)
    np.testing.assert_allclose(pyagrum_posteriors(model.to_xmlbif(tmp_path / "m.bifxml"), model, rows),
                               exact, rtol=0, atol=1e-9)
    skip = model.predict_proba(rows)
    if learner == "nb":  # every node a leaf: both rules are the same marginal, to the bit
        np.testing.assert_array_equal(skip, exact)
    else:  # a missing parent drops its children's terms under skip
        assert np.abs(skip - exact).max() > 0.1
    if learner == "asb":  # a joined node partly missing was among the rows
        joined = [n.attributes for n in model.structure_.nodes if len(n.attributes) > 1]
        assert any(((rows[:, list(g)] < 0).any(axis=1) & (rows[:, list(g)] >= 0).any(axis=1)
                    ).any() for g in joined)


def test_a_model_of_weighted_attributes_is_no_network_nor_summed_exactly(split, tmp_path):
    ds, X, y, _ = split
    model = make_classifier("nb", weights="awnb").fit(X, y, cardinalities=ds.cardinalities,
                                                      n_classes=ds.n_classes)
    with pytest.raises(ClassifierError, match="no Bayesian network"):
        model.to_bif(tmp_path / "m.bif")
    with pytest.raises(ClassifierError, match="parameter 'missing' must be 'skip' with "
                                              "weights='awnb'") as info:
        make_classifier("tan", weights="awnb", missing="exact")
    assert info.value.parameter == "missing"


def test_summing_out_is_bounded_by_the_table_limit(votes):
    # kDB with k = 4 on a row missing every attribute: the elimination's largest product
    # exceeds a limit of 64 cells; the error names the attributes, skip is not concerned.
    model = _fitted("kdb", votes, k=4)
    row = np.full((1, votes[1].shape[1]), -1)
    row[0, model.structure_.nodes[-1].attributes[0]] = 0  # observed: its parents matter
    with table_limit(64):
        with pytest.raises(TableTooLarge, match=r"the table of attribute\(s\) '.*' would have "
                                                r"[\d,]+ cells .* over the limit of 64"):
            _exact(model).predict_proba(row)
        model.predict_proba(row)
    assert np.isclose(_exact(model).predict_proba(row).sum(), 1.0)


def test_a_bad_missing_rule_is_refused_in_one_line_naming_the_key(tmp_path):
    import yaml
    from click.testing import CliRunner

    from bayesbench.cli import main

    for params, words in [({"missing": "maybe"}, "must be one of 'exact', 'skip', got 'maybe'"),
                          ({"missing": "exact", "weights": "wanbia"}, "must be 'skip' with")]:
        config = tmp_path / "exp.yaml"
        config.write_text(yaml.safe_dump({
            "name": "x", "datasets": ["house-votes-84"], "output": str(tmp_path / "out"),
            "classifiers": [{"name": "tan", "params": params}]}))
        res = CliRunner().invoke(main, ["run", str(config)])
        lines = res.stderr.strip().splitlines()
        assert res.exit_code == 2 and len(lines) == 1, res.output
        assert "classifiers[0].params.missing" in lines[0] and words in lines[0], lines[0]
        assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------------------ names

def _frame_model(columns: dict, target, learner="tan"):
    """``learner`` fitted on a DataFrame of categorical ``columns`` ({name: (values,
    categories)}) and the named Series ``target``."""
    X = pd.DataFrame({name: pd.Categorical(values, categories=cats)
                      for name, (values, cats) in columns.items()})
    return make_classifier(learner).fit(X, target), X


def test_a_model_fitted_on_a_data_frame_keeps_its_names_and_to_bif_returns_the_text(tmp_path):
    frame = load_dataset(locate_dataset("car")).to_frame()
    X, y = frame.drop(columns="class"), frame["class"].rename("acceptability")
    model = make_classifier("tan").fit(X, y)
    text = model.to_bif()
    assert text == model.to_bif(tmp_path / "m.bif").read_text()
    assert model.to_xmlbif() == model.to_xmlbif(tmp_path / "m.bifxml").read_text("utf-8")
    network = GrammarsOnce(string=text).get_model()
    assert sorted(network.nodes()) == sorted([*X.columns, "acceptability"])
    assert network.get_cpds("doors").state_names["doors"] == ["2", "3", "4", "5more"]
    assert network.get_cpds("acceptability").state_names["acceptability"] == list(
        model.classes_)
    np.testing.assert_allclose(
        pgmpy_posteriors(network, ["acceptability", *X.columns], {
            n: network.get_cpds(n).state_names[n] for n in network.nodes()},
            model, X.apply(lambda c: c.cat.codes).to_numpy()[:50]),
        model.predict_proba(X.iloc[:50]), rtol=0, atol=1e-9)


# Names that broke or would break a reader (issue 34, class 3): an attribute named like the
# class, BIF's keywords, characters outside BIF's grammar, names equal once made BIF-safe or
# ignoring case, numbers and empty strings as states, XML's special characters, unicode.
HOSTILE = {
    "an attribute named like the class": (
        {"class": (["a", "b", "a", "b"], ["a", "b"]), "x": (["u", "u", "v", "v"], ["u", "v"])},
        "class"),
    "keywords, spaces, quotes, case and clashes once BIF-safe": (
        {"probability": (["table", "default", "table", "default"], ["table", "default"]),
         "a b": (['"q"', "'q'", '"q"', "'q'"], ['"q"', "'q'"]),
         "a_b": (["1.5", "-inf", "-inf", "1.5"], ["1.5", "-inf"]),
         "Class": (["(2.45-4.75]", "", "", "(2.45-4.75]"], ["(2.45-4.75]", ""])},
        "class"),
    "unicode, XML's characters and white space": (
        {"naïve ünïcode": (["日本", "b&c", "日本", "b&c"], ["日本", "b&c"]),
         "<tag> & \"q\"": (["x\ty", "x  y ", "x\ty", "x  y "], ["x\ty", "x  y "]),
         "na\u00efve \u00fcn\u00efcode\t": (["p", "q", "q", "p"], ["p", "q"])},
        "variable"),
}


@pytest.mark.parametrize("case", HOSTILE)
def test_hostile_names_are_read_back_by_pgmpy_and_pyagrum(case, tmp_path):
    columns, target = HOSTILE[case]
    model, X = _frame_model(columns, pd.Series(["p", "n", "n", "p"], name=target))
    _read_back(model, X, tmp_path)


def _read_back(model, X, where):
    """Every reader finds one variable per node of ``model`` with the names the export's
    rule gives, and inference in it is ``predict_proba`` (pyAgrum's BIF reader: single
    precision)."""
    codes = X.apply(lambda c: c.cat.codes).to_numpy()
    expected = model.predict_proba(X)
    variables = model.bayesian_network()
    assert len({v.name for v in variables}) == len(variables) == 1 + len(X.columns)
    bif = distinct([bif_name(v.name) for v in variables], ignore_case=True)
    xml = distinct([xml_name(v.name) for v in variables])
    model.to_bif(where / "m.bif")
    model.to_xmlbif(where / "m.bifxml")
    reader = GrammarsOnce(str(where / "m.bif"))
    assert reader.variable_names == bif
    reader = XMLBIFReader(str(where / "m.bifxml"))
    assert reader.get_variables() == xml
    network = reader.get_model()
    states = {n: network.get_cpds(n).state_names[n] for n in network.nodes()}
    np.testing.assert_allclose(pgmpy_posteriors(network, xml, states, model, codes), expected,
                               rtol=0, atol=1e-9)
    np.testing.assert_allclose(pgmpy_bif(where / "m.bif", model, codes), expected,
                               rtol=0, atol=1e-9)
    for suffix, atol in ((".bif", 1e-6), (".bifxml", 1e-9)):
        bn = gum.loadBN(str(where / f"m{suffix}"))
        assert [bn.variable(i).name() for i in bn.nodes()] == (bif if suffix == ".bif" else xml)
        np.testing.assert_allclose(pyagrum_posteriors(where / f"m{suffix}", model, codes), expected,
                                   rtol=0, atol=atol)
    network = model.to_pgmpy()
    assert network.check_model() and sorted(network.nodes()) == sorted(v.name for v in variables)


_NAMES = st.text(min_size=0, max_size=6)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.lists(_NAMES, min_size=1, max_size=3, unique=True), _NAMES,
       st.lists(st.lists(_NAMES, min_size=2, max_size=2, unique=True), min_size=3, max_size=3))
def test_any_names_are_read_back(tmp_path_factory, names, target, values):
    columns = {name: ([v[i % 2] for i in range(4)], v) for name, v in zip(names, values)}
    model, X = _frame_model(columns, pd.Series(["p", "n", "n", "p"], name=target), "nb")
    _read_back(model, X, tmp_path_factory.mktemp("names"))


@pytest.mark.skipif(shutil.which("java") is None or not Path("/usr/share/java/weka.jar").exists(),
                    reason="runs Weka itself: needs java and /usr/share/java/weka.jar")
def test_weka_reads_the_xmlbif_file(tmp_path):
    # Weka's BayesNet takes a network's structure from an XMLBIF file (FromFile -B), whatever
    # its suffix, and prints each node's parents: those of our TAN.
    frame = load_dataset(locate_dataset("car")).to_frame()
    model = make_classifier("tan").fit(frame.drop(columns="class"), frame["class"])
    path = model.to_xmlbif(tmp_path / "car.bifxml")
    out = subprocess.run(
        ["java", "-cp", "/usr/share/java/weka.jar", "weka.classifiers.bayes.BayesNet", "-t",
         str(locate_dataset("car")), "-no-cv", "-Q",
         "weka.classifiers.bayes.net.search.fixed.FromFile", "--", "-B", str(path)],
        capture_output=True, text=True, timeout=120, check=True).stdout
    weka = {name: sorted(parents.split()) for name, parents in
            re.findall(r"^(\S+)\(\d+\): (.*)$", out, flags=re.MULTILINE)}
    network = model.to_pgmpy()
    assert weka == {v: sorted(network.get_parents(v)) for v in network.nodes()}
