"""Local discretization: TAN, kDB and AODE whose numeric attributes are discretized again
given their parents in the learned network (``tan_ld``, ``kdb_ld``, ``aode_ld``).

The method of Montañana, Gámez and Puerta (the ``TANLd``, ``KDBLd`` and ``AODELd``
classifiers of their C++ library BayesNet, 1.2.x, with its ``mdlp`` discretizer), as that
library runs it:

1. Each numeric attribute is discretized by MDLP given the class
   (:func:`~.ld_mdlp.mdlp_cuts`); nominal attributes are kept as they are.
2. Up to ``max_iterations`` times: learn the structure on the current discretization; then
   every numeric attribute with at least one attribute parent is discretized again by MDLP
   with, as labels, the joint value of the class and its parents (each label numbered in
   order of first appearance, as the library factorizes the joined strings), all from the
   discretization before this step; stop when the structure learned is the one learned the
   iteration before.
3. The structure is learned once more on the final discretization, and the tables are
   estimated from it (Laplace: ``(N + 1) / (N_pa + r)``, which is the library's default
   ``ORIGINAL`` smoothing with its weights ``1 / n``), a numeric attribute with ``c`` cut
   points having ``r = c + 3`` states as in the library (two that no value takes).

The structures are the library's, from its information measures computed as it computes
them (:mod:`~.ld_information`): TAN's root is the attribute of most ``I(X; C)``, the tree
Kruskal's maximum spanning tree of ``I(Xi; Xj | C)`` (weights as float32, ties to the
earlier pair), directed away from the root; kDB adds the attributes by decreasing
``I(X; C)``, each with up to ``k`` parents among those before it of most ``I(Xi; Xj | C)``
above ``theta`` (nats); AODE is one SPODE per attribute, each with its own local
discretization, which vote (the library's default; ``voting=False`` averages their
probabilities).

Rows with a missing value are left out of training, as the library's data readers drop them;
at prediction a missing value (or a nominal value never seen) is left out of the product,
as bayesbench's discrete models do. Cost per iteration: ``O(m N log N)`` for the
discretizations plus the structure's (``O(m^2 N)`` for the pairwise information); AODE
repeats the discretization for each of its ``m`` SPODEs.
"""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from scipy.special import logsumexp

from ...errors import ClassifierError
from ..core.base import BaseClassifier, StructureLearner, check_fitted, fresh_fit
from ..core.constraints import Interval
from ..core.counting import class_log_prior, counts, log_table, unseen_log_prob
from ..core.inference import joint_log_likelihood
from ..core.input_checks import check_mixed_predict_X, start_mixed_fit
from ..core.structure import Structure
from .ld_information import conditional_information_matrix, mutual_information_with_class
from .ld_mdlp import mdlp_codes, mdlp_cuts

_F32 = np.float32
#: States the library gives a numeric attribute beyond its bins (see _Discretization._set).
PHANTOM_STATES = 2
#: Rounds of structure and discretization at most (``max_iterations``; the library's default
#: is 10): a structure that never repeats (balance-scale's symmetric attributes can make one
#: alternate) runs every round, each a structure search and an MDLP of every attribute.
MAX_LD_ITERATIONS = 1000


# ------------------------------------------------------------------- structures
def tan_parents(codes, y, cards, n_classes) -> list[tuple[int, ...]]:
    """The library's TAN: root of most ``I(X; C)`` (the last of equals, as its sort leaves
    them), Kruskal over float32 ``I(Xi; Xj | C)`` (ties to the earlier pair), away from it."""
    m = codes.shape[1]
    mi = mutual_information_with_class(codes, y, cards, n_classes, class_first=True).astype(_F32)
    root = int(np.flatnonzero(mi == mi.max())[-1])
    weights = conditional_information_matrix(codes, y, cards, n_classes)
    i, j = np.triu_indices(m, 1)
    order = np.argsort(-weights[i, j], kind="stable")
    group = list(range(m))

    def find(a):
        while group[a] != a:
            a = group[a]
        return a

    adjacent: list[list[int]] = [[] for _ in range(m)]
    for e in order.tolist():
        a, b = find(int(i[e])), find(int(j[e]))
        if a != b:
            group[a] = b
            adjacent[int(i[e])].append(int(j[e]))
            adjacent[int(j[e])].append(int(i[e]))
    parents: list[tuple[int, ...]] = [()] * m
    seen, frontier = {root}, [root]
    while frontier:
        a = frontier.pop()
        for b in adjacent[a]:
            if b not in seen:
                seen.add(b)
                parents[b] = (a,)
                frontier.append(b)
    return parents


def kdb_parents(codes, y, cards, n_classes, k: int, theta: float) -> list[tuple[int, ...]]:
    """The library's kDB: attributes by decreasing ``I(X; C)`` (equals in index order), each
    taking, among those before it, up to ``k`` parents of most float32 ``I(Xi; Xj | C)``
    above ``theta``, looking no further once no earlier attribute is above it."""
    m = codes.shape[1]
    mi = mutual_information_with_class(codes, y, cards, n_classes, class_first=False)
    weights = conditional_information_matrix(codes, y, cards, n_classes)
    theta = _F32(theta)
    parents: list[tuple[int, ...]] = [()] * m
    before: set[int] = set()
    for a in np.argsort(-mi, kind="stable").tolist():
        wanted, chosen = min(k, len(before)), []
        row = np.append(weights[a], _F32(0.0))  # the class's column: I(X; C | C) = 0
        while k > 0:
            b = int(np.argmax(row))
            if b in before and row[b] > theta:
                chosen.append(b)
            row[b] = -1
            if len(chosen) == wanted or not (row > theta).any():
                break
        parents[a] = tuple(chosen)
        before.add(a)
    return parents


def spode_parents(m: int, root: int) -> list[tuple[int, ...]]:
    """A SPODE: every attribute but ``root`` has ``root`` as its parent."""
    return [() if a == root else (root,) for a in range(m)]


# ------------------------------------------------------------- discretization
def joint_labels(y: np.ndarray, parent_codes: np.ndarray, cards, n_classes: int) -> np.ndarray:
    """The class and the parents' codes of each row as one label, numbered by first
    appearance (the library joins them as strings and factorizes those)."""
    key = y.astype(np.int64)
    width = n_classes
    for col, card in zip(parent_codes.T, cards):
        key = key + width * col
        width *= int(card)
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    rank = np.empty(first.size, dtype=np.int64)
    rank[np.argsort(first)] = np.arange(first.size)
    return rank[inverse.reshape(-1)]


class _Discretization:
    """The numeric attributes' float32 values, cut points and codes during a fit."""

    def __init__(self, values, nominal, nominal_cards, y, settings: dict, initial=None):
        self.x = {j: values[:, j].astype(_F32) for j in np.flatnonzero(~nominal).tolist()}
        self.settings = settings
        self.codes = np.empty(values.shape, dtype=np.int64)
        self.cards = [int(c) for c in nominal_cards]
        self.cuts: dict[int, np.ndarray] = {}
        for j in range(values.shape[1]):
            if j in self.x:
                cuts = initial[j] if initial is not None else mdlp_cuts(self.x[j], y, **settings)
                self._set(j, cuts)
            else:
                self.codes[:, j] = values[:, j].astype(np.int64)

    def _set(self, j: int, cuts: np.ndarray) -> None:
        self.cuts[j] = cuts
        self.codes[:, j] = mdlp_codes(self.x[j], cuts)
        # The library counts an attribute's states as its getCutPoints() plus one, and those
        # hold the two ends of the training range besides the cuts: two states more than the
        # bins, which no value takes but Laplace's r counts (PHANTOM_STATES).
        self.cards[j] = cuts.size + 1 + PHANTOM_STATES

    def propose(self, parents, y, n_classes: int) -> None:
        """Discretize again every numeric attribute with an attribute parent, given the class
        and its parents, all from the codes before this step (the library's proposal)."""
        new = {}
        for j, pa in enumerate(parents):
            if pa and j in self.x:
                labels = joint_labels(y, self.codes[:, list(pa)], [self.cards[p] for p in pa],
                                      n_classes)
                new[j] = mdlp_cuts(self.x[j], labels, **self.settings)
        for j, cuts in new.items():
            self._set(j, cuts)


def _edges(parents) -> set:
    return {(p, a) for a, pa in enumerate(parents) for p in pa}


def iterate(disc: _Discretization, learn, y, n_classes: int, max_iterations: int):
    """Steps 2 and 3 above: the final parents and the number of iterations run."""
    previous, runs = None, 0
    for it in range(max_iterations):
        parents = learn(disc.codes, y, disc.cards, n_classes)
        disc.propose(parents, y, n_classes)
        runs = it + 1
        if it > 0 and _edges(parents) == previous:
            break
        previous = _edges(parents)
    return learn(disc.codes, y, disc.cards, n_classes), runs


# --------------------------------------------------------------------- models
class _Network:
    """One fitted network: the cut points of its numeric attributes, its structure and its
    Laplace tables."""

    def __init__(self, disc: _Discretization, parents, y, n_classes: int, names):
        self.cuts = dict(disc.cuts)
        self.cards = list(disc.cards)
        self.structure = Structure.from_parents(parents, cardinalities=self.cards,
                                                attribute_names=names)
        node_counts = counts(self.structure, disc.codes, y, self.cards, n_classes)
        self.tables = [log_table(c, 1.0) for c in node_counts]
        self.unseen = [unseen_log_prob(c, 1.0) for c in node_counts]

    def codes(self, values: np.ndarray) -> np.ndarray:
        out = np.where(np.isnan(values), -1, values).astype(np.int64)
        for j, cuts in self.cuts.items():
            out[:, j] = mdlp_codes(values[:, j], cuts)
        return out

    def log_joint(self, values: np.ndarray, log_prior: np.ndarray) -> np.ndarray:
        return joint_log_likelihood(self.structure, self.tables, self.codes(values), log_prior,
                                    unseen=self.unseen)


class LocalDiscretization(BaseClassifier):
    """What ``tan_ld``, ``kdb_ld`` and ``aode_ld`` share: numeric attributes taken as they
    are (mixed input: a DataFrame's categorical columns are nominal, NaN missing), the MDLP
    settings and the iterations, and the complete training rows.

    Parameters
    ----------
    max_iterations : int, default 10
        Structure-and-discretization rounds at most (the library's ``max_iterations``; at
        most :data:`MAX_LD_ITERATIONS`).
    proposed_cuts : float, default 0.0
        Cut points per attribute at most (``ld_proposed_cuts``): 0 no limit, below 1 that
        fraction of the training rows, else that number.
    min_length : int, default 3
        Intervals of fewer rows are not split (``mdlp_min_length``, at least 3; above the
        training rows, no attribute is cut).
    max_depth : int or None, default None
        Levels of MDLP's recursion at most (``mdlp_max_depth``; None: no limit, and no
        recursion is deeper than the training rows).
    """

    input_kind = "mixed"
    _parameter_constraints = {
        "max_iterations": [Interval(Integral, 1, MAX_LD_ITERATIONS, closed="both")],
        "proposed_cuts": [Interval(Real, 0, None, closed="left")],
        "min_length": [Interval(Integral, 3, None, closed="left")],
        "max_depth": [None, Interval(Integral, 1, None, closed="left")],
    }

    def __init__(self, *, max_iterations=10, proposed_cuts=0.0, min_length=3, max_depth=None):
        self.max_iterations = max_iterations
        self.proposed_cuts = proposed_cuts
        self.min_length = min_length
        self.max_depth = max_depth

    def _settings(self) -> dict:
        return {"min_length": int(self.min_length), "proposed_cuts": float(self.proposed_cuts),
                "max_depth": None if self.max_depth is None else int(self.max_depth)}

    def _start(self, X, y, n_classes):
        """The complete training rows and their class codes, the attributes' names."""
        values, codes = start_mixed_fit(self, X, y, n_classes)
        self.nominal_ = np.array([c is not None for c in self.categories_], dtype=bool)
        self.cardinalities_ = np.array([0 if c is None else len(c) for c in self.categories_],
                                       dtype=np.int64)
        complete = ~np.isnan(values).any(axis=1)
        if not complete.any():
            raise ClassifierError(f"{type(self).__name__} needs a training row without "
                                  f"missing values (rows with one are left out, as the "
                                  f"authors' library drops them)")
        names = getattr(self, "feature_names_in_", None)
        names = None if names is None else tuple(names)
        self._log_prior = class_log_prior(codes[complete], len(self.classes_))
        return values[complete], codes[complete], names

    def _predict_values(self, X) -> np.ndarray:
        check_fitted(self)
        return check_mixed_predict_X(self, X)


class _SingleNetwork(StructureLearner, LocalDiscretization):
    """``tan_ld`` and ``kdb_ld``: one network, its structure in ``structure_``, its cut
    points in ``cuts_`` (attribute name -> float32 cut points)."""

    def _learn(self, codes, y, cards, n_classes):
        raise NotImplementedError

    @fresh_fit
    def fit(self, X, y, *, cardinalities=None, n_classes=None):
        """Fit on ``X`` (see the class docstring); ``cardinalities`` is ignored (a DataFrame's
        categories give the nominal attributes' values)."""
        values, codes, names = self._start(X, y, n_classes)
        k = len(self.classes_)
        disc = _Discretization(values, self.nominal_, self.cardinalities_, codes,
                               self._settings())
        parents, self.n_iterations_ = iterate(disc, self._learn, codes, k,
                                              int(self.max_iterations))
        self._network = _Network(disc, parents, codes, k, names)
        self.structure_ = self._network.structure
        labels = names or [f"x{j}" for j in range(values.shape[1])]
        self.cuts_ = {labels[j]: c for j, c in sorted(self._network.cuts.items())}
        return self

    def _joint_log_likelihood(self, X) -> np.ndarray:
        return self._network.log_joint(self._predict_values(X), self._log_prior)


class TANLd(_SingleNetwork):
    """TAN with local discretization (the library's ``TANLd``); see the module docstring.

    Examples
    --------
    >>> from bayesbench.data import load_dataset
    >>> iris = load_dataset("iris")
    >>> model = TANLd().fit(iris.numeric_matrix(), iris.y)
    >>> model.n_iterations_ <= 10 and model.score(iris.numeric_matrix(), iris.y) > 0.9
    True
    """

    def _learn(self, codes, y, cards, n_classes):
        return tan_parents(codes, y, cards, n_classes)


class KDBLd(_SingleNetwork):
    """kDB with local discretization (the library's ``KDBLd``); see the module docstring.

    Parameters
    ----------
    k : int, default 2
        Attribute parents at most.
    theta : float, default 0.03
        An attribute parent needs ``I(Xi; Xj | C)`` above this (nats), as the library's kDB.
    max_iterations, proposed_cuts, min_length, max_depth
        As :class:`LocalDiscretization`.
    """

    _parameter_constraints = {**LocalDiscretization._parameter_constraints,
                              "k": [Interval(Integral, 0, None, closed="left")],
                              "theta": [Interval(Real, 0, None, closed="left")]}

    def __init__(self, *, k=2, theta=0.03, max_iterations=10, proposed_cuts=0.0,
                 min_length=3, max_depth=None):
        super().__init__(max_iterations=max_iterations, proposed_cuts=proposed_cuts,
                         min_length=min_length, max_depth=max_depth)
        self.k = k
        self.theta = theta

    def _learn(self, codes, y, cards, n_classes):
        return kdb_parents(codes, y, cards, n_classes, int(self.k), float(self.theta))


class AODELd(LocalDiscretization):
    """AODE with local discretization (the library's ``AODELd``): one SPODE per attribute,
    each with its own local discretization; see the module docstring.

    Parameters
    ----------
    voting : bool, default True
        Each SPODE votes for its most probable class and ``predict_proba`` gives the share
        of votes (the library's default); False: the SPODEs' class probabilities averaged.
    max_iterations, proposed_cuts, min_length, max_depth
        As :class:`LocalDiscretization`.

    Attributes
    ----------
    cuts_ : list of dict
        Per SPODE (super-parent attribute in order), attribute name -> float32 cut points.
    """

    _parameter_constraints = {**LocalDiscretization._parameter_constraints,
                              "voting": ["boolean"]}

    def __init__(self, *, voting=True, max_iterations=10, proposed_cuts=0.0, min_length=3,
                 max_depth=None):
        super().__init__(max_iterations=max_iterations, proposed_cuts=proposed_cuts,
                         min_length=min_length, max_depth=max_depth)
        self.voting = voting

    @fresh_fit
    def fit(self, X, y, *, cardinalities=None, n_classes=None):
        """Fit on ``X`` (see the class docstring); ``cardinalities`` is ignored (a DataFrame's
        categories give the nominal attributes' values)."""
        values, codes, names = self._start(X, y, n_classes)
        k, m = len(self.classes_), values.shape[1]
        settings = self._settings()
        # Every SPODE starts from the same class-only discretization: found once.
        first = _Discretization(values, self.nominal_, self.cardinalities_, codes, settings)
        self._networks = []
        for root in range(m):
            disc = _Discretization(values, self.nominal_, self.cardinalities_, codes,
                                   settings, initial=first.cuts)
            parents = spode_parents(m, root)
            # The library iterates until the structure repeats, which a SPODE's does at once:
            # its second proposal reads the same (never rediscretized) root, so it finds the
            # same cut points as the first. One proposal gives them.
            disc.propose(parents, codes, k)
            self._networks.append(_Network(disc, parents, codes, k, names))
        labels = names or [f"x{j}" for j in range(m)]
        self.cuts_ = [{labels[j]: c for j, c in sorted(n.cuts.items())} for n in self._networks]
        return self

    def _joint_log_likelihood(self, X) -> np.ndarray:
        values = self._predict_values(X)
        joints = [n.log_joint(values, self._log_prior) for n in self._networks]
        if self.voting:
            share = np.zeros((values.shape[0], len(self.classes_)))
            rows = np.arange(values.shape[0])
            for joint in joints:
                np.add.at(share, (rows, joint.argmax(axis=1)), 1.0)
            share /= len(joints)
        else:
            share = np.mean([np.exp(j - logsumexp(j, axis=1, keepdims=True)) for j in joints],
                            axis=0)
        with np.errstate(divide="ignore"):
            return np.log(share)
