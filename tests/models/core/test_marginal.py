"""Variable elimination over missing attributes (models/core/marginal.py) is about factors and
scopes, not about the augmented naive Bayes: a network whose class has a parent and a child
that does not depend on the class, summed by hand."""
import numpy as np

from bayesbench.models.core import marginal


def test_a_class_with_a_parent_summed_by_hand():
    # A -> C -> B, the class C. Rows observe B and miss A: p(c, b) = sum_a p(a) p(c | a) p(b | c).
    # Nodes: p(a) (attribute 0), the class's table (no attribute, parent 0), p(b | c) (1).
    rng = np.random.default_rng(0)
    p_a = rng.dirichlet(np.ones(3))                   # 3 values of A
    p_c = rng.dirichlet(np.ones(2), size=3)           # p(c | a), 2 classes
    p_b = rng.dirichlet(np.ones(4), size=2)           # p(b | c), 4 values of B
    cards = [3, 4]
    scopes = [((0,), ()), ((), (0,)), ((1,), ())]
    # A is missing; the class's table (no attribute) and p(a) (the class's parent) stay.
    assert marginal.barren(scopes, {0}) == set()
    # With B missing too, p(b | c) is barren: nothing below it.
    assert marginal.barren(scopes, {0, 1}) == {2}
    b = np.array([0, 3, 2])                           # three rows
    factors = [np.log(np.tile(p_a, (3, 1)))[:, :, None],        # (rows, A, class axis 1)
               np.log(np.tile(p_c, (3, 1, 1)))]                 # (rows, A, classes)
    the_plan = marginal.plan([(0,), (0,)], cards, 2)
    summed = marginal.eliminate(the_plan, factors, cards) + np.log(p_b[:, b].T)
    want = np.array([[sum(p_a[a] * p_c[a, c] for a in range(3)) * p_b[c, x] for c in range(2)]
                     for x in b])
    np.testing.assert_allclose(np.exp(summed), want, rtol=1e-13)
