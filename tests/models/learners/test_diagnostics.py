"""Zhang's dependence diagnostics: Theorem 1, f_b(E) = DF(E) f_nb(E), checked numerically."""
import numpy as np
import pytest

from bayesbench.data import load_dataset
from bayesbench.errors import ClassifierError
from bayesbench.models.learners.diagnostics import dependence_diagnostics
from bayesbench.models.learners.kdb import KDB
from bayesbench.models.learners.naive_bayes import NaiveBayes
from bayesbench.models.learners.tan import TAN


@pytest.mark.parametrize("learner", [TAN(alpha=0.5), KDB(k=2, alpha=1.0)])
def test_theorem_1_on_kr_vs_kp(uci_dir, learner):
    ds = load_dataset(uci_dir / "kr-vs-kp.arff")
    X, y = ds.codes(), ds.y
    model = learner.fit(X, y, cardinalities=ds.cardinalities)
    # The correspondent naive Bayes, fitted independently on the same rows.
    nb = NaiveBayes(alpha=learner.alpha).fit(X, y, cardinalities=ds.cardinalities)
    p_b = model.predict_proba(X[:200])
    p_nb = nb.predict_proba(X[:200])
    for r in range(200):
        d = dependence_diagnostics(model, X[r])
        f_b = p_b[r, 1] / p_b[r, 0]
        f_nb = p_nb[r, 1] / p_nb[r, 0]
        assert d.f_b == pytest.approx(f_b, rel=1e-9)
        assert d.f_nb == pytest.approx(f_nb, rel=1e-9)
        assert f_b == pytest.approx(d.dependence_factor * f_nb, rel=1e-9)
        np.testing.assert_allclose(d.ddr, d.dd_positive / d.dd_negative, rtol=1e-12)
        assert d.dependence_factor == pytest.approx(np.prod(d.ddr), rel=1e-9)


def test_nodes_without_parents_have_ratio_one():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, (300, 4))
    y = (X[:, 0] + X[:, 1] > 2).astype(int)
    model = TAN().fit(X, y)
    d = dependence_diagnostics(model, X[0])
    root = [k for k, n in enumerate(model.structure_.nodes) if not n.parents]
    assert root == [0]
    assert d.dd_positive[0] == d.dd_negative[0] == d.ddr[0] == pytest.approx(1.0)
    # A naive Bayes has DF(E) = 1 everywhere.
    d = dependence_diagnostics(NaiveBayes().fit(X, y), X[1])
    assert d.dependence_factor == pytest.approx(1.0)
    assert d.f_b == pytest.approx(d.f_nb)


def test_diagnostics_reject_incomplete_examples_and_bad_classes():
    X = np.array([[0, 1], [1, 0], [1, 1], [0, 0]])
    model = TAN().fit(X, np.array([0, 1, 1, 0]))
    with pytest.raises(ClassifierError, match="complete example"):
        dependence_diagnostics(model, [0, -1])
    with pytest.raises(ClassifierError, match="two different classes"):
        dependence_diagnostics(model, [0, 1], positive=0, negative=0)
