"""kDB's parent choice by hand, and its structure on data."""
import numpy as np
import pytest

from bayesbench.errors import ClassifierError
from bayesbench.models.learners.kdb import KDB, kdb_parents


def test_kdb_parents_by_hand():
    mi = np.array([0.1, 0.5, 0.3, 0.5])      # order: 1, 3 (tie, index order), 2, 0
    cmi = np.array([[0, .2, .9, .1],
                    [.2, 0, .4, .3],
                    [.9, .4, 0, .3],
                    [.1, .3, .3, 0]])
    order, parents = kdb_parents(mi, cmi, k=2)
    assert order == [1, 3, 2, 0]
    assert parents == [(2, 1), (), (1, 3), (1,)]
    _, parents = kdb_parents(mi, cmi, k=1)
    assert parents == [(2,), (), (1,), (1,)]
    _, parents = kdb_parents(mi, cmi, k=0)
    assert parents == [()] * 4


def test_kdb_structure_and_bad_k():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, (500, 5))
    y = (X[:, 0] + X[:, 1] >= 3).astype(int)
    model = KDB(k=3).fit(X, y)
    assert max(len(n.parents) for n in model.structure_.nodes) == 3
    assert model.structure_.info["order"][:2] in ([0, 1], [1, 0])
    with pytest.raises(ClassifierError, match="'k' must be"):
        KDB(k=-1).fit(X, y)
