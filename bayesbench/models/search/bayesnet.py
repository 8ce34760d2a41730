"""An unrestricted Bayesian network classifier: Weka 3.6's ``BayesNet``.

The class and the attributes are nodes of one network whose structure a local score
search learns (:mod:`.network_search`: K2, hill climbing, tabu search, TAN); the class
may lose arcs to attributes and gain attribute parents, so the learned network is a
general one (:class:`~bayesbench.models.core.structure.Structure` with
``augmented=False``). Its tables are smoothed counts (Weka's ``SimpleEstimator``), and
a row is classified by the factors of the class's Markov blanket, in log space.

References: Bouckaert (2004), "Bayesian network classifiers in Weka", Working Paper
14/2004, University of Waikato; Cooper and Herskovits (1992), "A Bayesian method for the
induction of probabilistic networks from data", Machine Learning 9.
"""
from __future__ import annotations

import bisect
import math
from numbers import Integral, Real

import numpy as np

from ..core.base import fresh_fit, parameter_named_like_method
from ..core.constraints import Interval, StrOptions
from ..core.counting import smoothed_tables
from ..core.inference import joint_log_likelihood
from ..core.input_checks import check_discrete_predict_X, start_discrete_fit
from ..core.structure import Node, Structure
from ..core.sufficient import StatisticsNotSufficient
from ..learners.anb import StatisticsANB
from ...measures.codes import TableTooLarge, current_table_limit
from .family_counts import FamilyCounts
from .local_scores import SCORES
from .network_search import (LocalScorer, hill_climbing, initial_parents, k2, k2_order,
                             tabu_search, tan)

#: The searches of ``search``, by name (Weka's class in ``...net.search.local``).
SEARCHES = ("k2", "hill_climbing", "tabu", "tan")
#: The starts of ``initial``: naive Bayes (Weka's default) or no arc (Weka's ``-N``).
INITIAL = ("naive", "empty")


def training_modes(X: np.ndarray, cardinalities) -> np.ndarray:
    """Each attribute's most frequent value among the rows where it is given, the lowest
    code among equals (0 when it is never given): what Weka's ``ReplaceMissingValues``
    puts in place of a missing value."""
    cards = np.asarray(cardinalities, dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(cards)])
    codes = X.astype(np.int64) + starts[:-1]  # every attribute's values in one count
    counts = np.bincount(codes[X >= 0], minlength=int(starts[-1]))
    return np.array([np.argmax(counts[starts[j]:starts[j + 1]]) for j in range(cards.size)],
                    dtype=np.int64)


def fill_missing(X: np.ndarray, modes: np.ndarray) -> np.ndarray:
    """``X`` with every missing code (``-1``) replaced by its attribute's mode."""
    missing = X < 0
    if not missing.any():
        return X
    return np.where(missing, modes.astype(X.dtype), X)


def largest_family(cards, n_classes: int, max_parents: int, search: str, naive: bool,
                   shuffled: bool) -> tuple[int, tuple[int, ...]]:
    """``(node, shape)`` of the largest table of counts the search may ask for: a node with
    as many parents as it may have, the ones of most values (the class is node
    ``len(cards)``); the class counts among K2's and TAN's parents when they start from
    naive Bayes, and K2's parents come before the node in its order."""
    sizes = [int(c) for c in cards] + [int(n_classes)]
    the_class = len(cards)
    prefix = search == "k2" and not shuffled  # the class first, then the attributes
    # The candidates' sizes, largest first: every node's, or (K2 in order) those before
    # the node, kept as the nodes go by.
    ranked = [] if prefix else sorted(((-size, u) for u, size in enumerate(sizes)))
    best = (the_class, (sizes[the_class],))
    for v in (the_class, *range(the_class)) if prefix else range(len(sizes)):
        fixed = [the_class] if naive and v != the_class and search in ("k2", "tan") else []
        if search == "tan":
            room = 1 if v != the_class else 0
        elif search == "k2":
            room = max(max_parents - len(fixed), 0)
        else:
            room = max(max_parents, int(naive and v != the_class))
        others = []
        for size, u in ranked:
            if len(others) == room:
                break
            if u != v and u not in fixed:
                others.append(-size)
        shape = (sizes[v], *(sizes[u] for u in fixed), *others)
        if math.prod(shape) > math.prod(best[1]):  # the first largest in node order
            best = (v, shape)
        if prefix:
            bisect.insort(ranked, (-sizes[v], v))
    return best


class BayesNet(StatisticsANB):
    """Weka 3.6's ``BayesNet``: a network over the class and the attributes, by a score search.

    It classifies by the factors of the class's Markov blanket.

    ``BayesNet()`` is Weka's ``BayesNet`` with no options (``-Q ...search.local.K2 -- -P 1
    -S BAYES -E ...SimpleEstimator -- -A 0.5``): K2 from naive Bayes with at most one
    parent per node, and Weka counts the class among them, so it is naive Bayes with
    tables smoothed by 0.5.

    The searches (:mod:`~bayesbench.models.search.network_search`) take Weka's settings:
    K2's order is the class then the attributes in column order (shuffled with
    ``random_state``, as Weka's ``-R``); hill climbing and tabu search add and delete arcs
    (arc reversal off, Weka's default); tabu search takes 10 steps with a tabu list of 5
    (``-U 10 -L 5``); no Markov blanket correction (``-mbc`` off). Candidates of equal
    score are taken in Weka's loop order, so the parent sets are Weka's.

    Missing values are replaced by each attribute's training mode, at fit and at
    prediction (Weka's ``ReplaceMissingValues``, which ``BayesNet`` applies itself). A
    value beyond the cardinality known at fit gets the smoothed probability of a zero
    count; a parent value beyond it leaves the factor out (its parent configuration is
    unseen: a uniform distribution).

    Parameters
    ----------
    search : {'k2', 'hill_climbing', 'tabu', 'tan'}, default 'k2'
        Weka's ``K2``, ``HillClimber``, ``TabuSearch``, ``TAN`` (local score versions).
    max_parents : int, default 1
        The most parents of a node (Weka's ``-P``), the class included when it is one;
        with the naive Bayes start every attribute already has the class, so K2 with 1 is
        naive Bayes. TAN sets its own (the class and one attribute) and ignores it. A
        value whose largest table of counts would exceed the table limit
        (``max_table_cells``) is refused before anything is counted.
    score : {'bayes', 'bdeu', 'mdl', 'aic', 'entropy'}, default 'bayes'
        The local score (Weka's ``-S``; :mod:`~bayesbench.models.search.local_scores`).
        ``model.score(X, y)`` is still the accuracy: the value, read, is a string that,
        called, runs the method.
    alpha : float, default 0.5
        Pseudo-count per table cell (Weka's ``SimpleEstimator -A``); the Bayes score's
        own prior stays 0.5, as in Weka.
    initial : {'naive', 'empty'}, default 'naive'
        The search's start: the class a parent of every attribute, or no arc (Weka's
        ``-N``). TAN always starts from naive Bayes.
    random_state : int or None, default None
        K2 only: None keeps Weka's order; an integer shuffles it as Weka's ``-R`` does,
        seeded (Weka's own shuffle is not). The other searches draw nothing.

    Attributes
    ----------
    structure_ : Structure
        The network (``augmented=False``): each node's attribute parents in the order
        the search added them, whether the class is its parent, and the class's parents.
    tables_ : list of ndarray
        Per node, ``log p(x_v | parents)``: ``(n_classes, q, r)`` when the class is a
        parent, else ``(1, q, r)``.
    class_log_prior_ : ndarray
        ``log p(c)``, shape ``(n_classes,)``, or ``log p(c | parents)``, shape ``(q, n_classes)``.
    modes_ : ndarray of int64
        The value that stands for a missing one, per attribute.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 300)
    >>> a = np.where(rng.random(300) < 0.8, y, 1 - y)
    >>> b = np.where(rng.random(300) < 0.9, a, 1 - a)
    >>> X = np.column_stack([a, b, rng.integers(0, 3, 300)])
    >>> model = BayesNet(search="hill_climbing", max_parents=2).fit(X, y)
    >>> print(model.structure_)
    Structure over 3 attributes: 3 nodes; 2 arcs
      x0 <- class
      x1 <- x0
      x2 <- (no parents)
    >>> model.score, round(model.score(X, y), 3)    # the parameter, and the accuracy
    ('bayes', 0.773)
    """

    _parameter_constraints = {
        "search": [StrOptions(set(SEARCHES))],
        "max_parents": [Interval(Integral, 0, None, closed="left")],
        "score": [StrOptions(set(SCORES))],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "initial": [StrOptions(set(INITIAL))],
        "random_state": [None, Interval(Integral, 0, None, closed="left")],
    }
    score = parameter_named_like_method("score")

    def __init__(self, *, search: str = "k2", max_parents: int = 1, score: str = "bayes",
                 alpha: float = 0.5, initial: str = "naive", random_state=None):
        self.search = search
        self.max_parents = max_parents
        self.score = score
        self.alpha = alpha
        self.initial = initial
        self.random_state = random_state

    @classmethod
    def is_stochastic(cls, params) -> bool:
        """Never seeded by the runner: only a ``random_state`` given shuffles K2's order."""
        return False

    def _naive(self) -> bool:
        return self.initial == "naive" or self.search == "tan"

    def _pair_sufficient(self) -> bool:
        """Whether every family the search may count has at most two attributes (then the
        pair counts hold them all): one parent at most, or K2 and TAN from naive Bayes with
        the class and one attribute."""
        limit = 2 if self.search == "tan" or (self.search == "k2" and self._naive()) else 1
        return int(self.max_parents) <= limit

    def _check_tables(self, cards, n_classes):
        """Refuse, before counting, a ``max_parents`` whose largest table would exceed the
        table limit."""
        limit = current_table_limit()
        # A table has the node's values, the class's and at most max(max_parents, 1) more
        # parents': none can be over the limit when that many of the most values are not.
        most = max(int(max(cards, default=1)), int(n_classes))
        if most ** (2 + max(int(self.max_parents), 1)) <= limit:
            return
        node, shape = largest_family(cards, n_classes, int(self.max_parents), self.search,
                                     self._naive(), self.random_state is not None)
        if math.prod(shape) > limit:
            names = getattr(self, "feature_names_in_", None)
            what = "the class" if node == len(cards) else (
                f"attribute '{names[node]}'" if names is not None else f"attribute {node}")
            err = TableTooLarge(shape, (), limit, what=(
                f"max_parents={int(self.max_parents)} ({what} with {len(shape) - 1} parents)"))
            err.parameter = "max_parents"
            raise err

    @fresh_fit
    def fit(self, X, y, *, cardinalities=None, n_classes=None):
        """Replace missing values, search the structure, count its tables; returns self."""
        X, cards, codes, names = start_discrete_fit(self, X, y, cardinalities, n_classes)
        self._check_tables(cards, len(self.classes_))
        # Without missing values the modes are read from the tables (_learn).
        self.modes_ = training_modes(X, cards) if (X < 0).any() else None
        X = X if self.modes_ is None else fill_missing(X, self.modes_)
        # K2 from naive Bayes with one parent (the default) searches nothing: naive Bayes.
        searches = self.search != "k2" or int(self.max_parents) > int(self._naive())
        counts = FamilyCounts(cards, len(self.classes_), X=X, y=codes, pairs=searches)
        self._learn(counts, cards, names)
        return self

    def _fit_statistics(self, stats):
        cards = np.asarray(stats.cardinalities)
        if stats.rows is None and not self._pair_sufficient():
            raise StatisticsNotSufficient(
                f"BayesNet's {self.search} search with max_parents={self.max_parents} may "
                f"count families of three attributes, from rows the statistics do not "
                f"keep: fit it with fit")
        self._check_tables(cards, stats.n_classes)
        self.modes_ = np.array([int(np.argmax(stats.attribute(j).sum(axis=0)))
                                for j in range(len(cards))], dtype=np.int64)
        self._learn(FamilyCounts(cards, stats.n_classes, stats=stats, modes=self.modes_), cards,
                    stats.attribute_names)

    def _search(self, counts: FamilyCounts) -> list[list[int]]:
        """Each node's parents in Weka's order (the class is the last node)."""
        n = counts.m + 1
        parents = initial_parents(n, self._naive())
        scorer = LocalScorer(counts, self.get_params()["score"])
        max_parents = int(self.max_parents)
        if self.search == "k2":
            rng = None if self.random_state is None else np.random.default_rng(self.random_state)
            return k2(scorer, parents, max_parents, k2_order(n, self._naive(), rng))
        if self.search == "hill_climbing":
            return hill_climbing(scorer, parents, max_parents)
        if self.search == "tabu":
            return tabu_search(scorer, parents, max_parents)
        return tan(scorer, parents)

    def _learn(self, counts: FamilyCounts, cards, names):
        parents = self._search(counts)
        m, k = counts.m, counts.n_classes
        # The data's cardinalities and names given at once (``_place`` would copy it).
        self.structure_ = Structure(
            [Node((v,), [p for p in parents[v] if p != m], class_parent=m in parents[v])
             for v in range(m)], m, class_parents=parents[m], augmented=False,
            info={"learner": "bayesnet", "search": self.search,
                  "score": self.get_params()["score"]},
            cardinalities=tuple(int(c) for c in cards), attribute_names=names)
        self.counts_ = [self._our_layout(counts.table(v, parents[v]), parents[v], cards, m, k)
                        for v in range(m)]
        # The class's table smoothed with the nodes' (its unseen row is not used).
        tables, unseen = smoothed_tables([*self.counts_, counts.table(m, parents[m])],
                                         float(self.alpha))
        self.tables_, self.unseen_, class_table = tables[:-1], unseen[:-1], tables[-1]
        self.class_log_prior_ = class_table[0] if not parents[m] else class_table
        self.node_weights_ = self.weighting_ = None
        if self.modes_ is None:  # every value given: the counts of each attribute's values
            modes = counts.modes()
            self.modes_ = (modes.astype(np.int64) if modes is not None else
                           np.array([int(np.argmax(c.sum(axis=(0, 1)))) for c in self.counts_],
                                    dtype=np.int64))

    @staticmethod
    def _our_layout(table, parents, cards, the_class, n_classes) -> np.ndarray:
        """Weka's ``(q, r)`` counts (all parents in order) as the inference's
        ``(n_classes, q', r)`` (the class's axis first, ``q'`` its attribute parents),
        or ``(1, q, r)`` for a node the class is not a parent of."""
        r = table.shape[1]
        if the_class not in parents:
            return table.reshape(1, -1, r)
        if parents[0] == the_class:  # the class's axis is first already
            return table.reshape(n_classes, -1, r)
        axes = [n_classes if p == the_class else int(cards[p]) for p in parents] + [r]
        table = np.moveaxis(table.reshape(axes), parents.index(the_class), 0)
        return np.ascontiguousarray(table).reshape(n_classes, -1, r)

    def _predict_codes(self, X) -> np.ndarray:
        return fill_missing(check_discrete_predict_X(self, X), self.modes_)

    def _joint_log_likelihood(self, X) -> np.ndarray:
        # The Markov blanket's factors: the others are the same for every class.
        return joint_log_likelihood(self.structure_, self.tables_, self._predict_codes(X),
                                    self.class_log_prior_, unseen=self.unseen_, blanket=True)

    def _log_joint(self, X) -> np.ndarray:
        return joint_log_likelihood(self.structure_, self.tables_, self._predict_codes(X),
                                    self.class_log_prior_, unseen=self.unseen_)
