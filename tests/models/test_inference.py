"""Inference: the joint log-likelihood against hand-computed products."""
import numpy as np

from bayesbench.models.inference import joint_log_likelihood
from bayesbench.models.structure import Node, Structure


def test_joint_log_likelihood_by_hand_with_missing_values():
    # Two attributes, x1 has parent x0; hand-written tables.
    s = Structure((Node((0,)), Node((1,), (0,))), 2, cardinalities=(2, 2))
    p0 = np.array([[0.2, 0.8], [0.6, 0.4]])               # p(x0 | c)
    p1 = np.array([[[0.1, 0.9], [0.7, 0.3]],              # p(x1 | x0, c=0)
                   [[0.5, 0.5], [0.2, 0.8]]])             # p(x1 | x0, c=1)
    tables = [np.log(p0)[:, None, :], np.log(p1)]
    prior = np.log([0.3, 0.7])
    X = np.array([[1, 0], [-1, 1], [0, -1], [-1, -1]])
    got = np.exp(joint_log_likelihood(s, tables, X, prior))
    want = np.array([
        [0.3 * 0.8 * 0.7, 0.7 * 0.4 * 0.2],
        [0.3, 0.7],                 # x0 missing: x0 left out, x1 (its child) too
        [0.3 * 0.2, 0.7 * 0.6],     # x1 missing: left out
        [0.3, 0.7]])
    np.testing.assert_allclose(got, want)
    plain = np.exp(joint_log_likelihood(s, tables, X, prior, plain=True))
    np.testing.assert_allclose(plain, want)
