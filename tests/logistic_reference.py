"""The problem scikit-learn's ``LogisticRegression`` is given to check ``estimator: cll``
against: the one-hot coding of every node's family. Shared by
``tests/models/parameters/test_cll.py`` and ``benchmarks/bench_seminaive.py`` (which puts
``tests/`` on its path)."""
import numpy as np
import scipy.sparse as sp


def family_onehot(structure, X, cards):
    """The one-hot coding of every node's family, CSR: one column per (parent configuration,
    value) of each node, 1 where the row holds it; no column set where the row misses the
    node's value or a parent's (as the model leaves the node out)."""
    n = X.shape[0]
    rows, cols, width = [], [], 0
    for node in structure.nodes:
        family = list(node.parents) + list(node.attributes)
        code, present = np.zeros(n, dtype=np.int64), np.ones(n, dtype=bool)
        for a in family:
            code = code * int(cards[a]) + np.maximum(X[:, a], 0)
            present &= X[:, a] >= 0
        rows.append(np.flatnonzero(present))
        cols.append(width + code[present])
        width += int(np.prod([cards[a] for a in family]))
    r, c = np.concatenate(rows), np.concatenate(cols)
    return sp.csr_matrix((np.ones(r.size), (r, c)), shape=(n, width))
