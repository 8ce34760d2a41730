"""Exact inference by the peers, pgmpy and pyAgrum, in a network exported by bayesbench: the
reference ``predict_proba`` is compared with, shared by ``tests/models/core/test_export.py`` and
``benchmarks/check_network_inference.py`` (which puts ``tests/`` on its path).

A variable is found by position: the class first, then the model's nodes in order. A missing
attribute is no evidence; a joined node (BSEJ, ASB, FSSJ) partly observed gets the set of its
states consistent with the observed ones (pyAgrum: a 0/1 likelihood; pgmpy: the joint
posterior of the class and the node, summed over the set).
"""
import itertools

import numpy as np
import pyagrum as gum
from pgmpy.inference import VariableElimination
from pgmpy.readwrite import BIFReader


class GrammarsOnce(BIFReader):
    """pgmpy's BIF reader, its two pyparsing grammars built once per process instead of
    for every file: they depend on nothing read (``get_variable_grammar``,
    ``get_probability_grammar``), and building them (character sets of every Unicode letter)
    was most of a read. Should pgmpy rename the methods, every file builds them again:
    slower, the same networks."""

    _grammars: dict = {}

    def get_variable_grammar(self):
        if "variable" not in self._grammars:
            self._grammars["variable"] = super().get_variable_grammar()
        return self._grammars["variable"]

    def get_probability_grammar(self):
        if "probability" not in self._grammars:
            self._grammars["probability"] = super().get_probability_grammar()
        return self._grammars["probability"]


class PrunedOnce(VariableElimination):
    """pgmpy's variable elimination, its pruning of the network done once per set of query
    and evidence variables instead of once per query: pruning reads their names, never their
    values (``Inference._prune_bayesian_model``), so every row of a test has the same pruned
    network, and it was 70 % of a query's time. Should pgmpy rename the method, this
    override goes unused and every query prunes again: slower, the same numbers."""

    def __init__(self, model):
        super().__init__(model)
        self._pruned = {}

    def _prune_bayesian_model(self, variables, evidence):
        key = (tuple(variables), frozenset(evidence))
        if key not in self._pruned:
            network, kept = super()._prune_bayesian_model(variables, evidence)
            self._pruned[key] = network, tuple(kept)
        network, kept = self._pruned[key]
        return network, {name: evidence[name] for name in kept}


def evidence(model, row) -> dict:
    """Per variable of the exported network (by position: the class is 0, then the nodes in
    order), its state's position when all its attributes are observed, or the 0/1 vector of
    its states consistent with those observed (a joined node partly missing); none when
    none is."""
    cards = model.cardinalities_
    out = {}
    for v, node in enumerate(model.structure_.nodes):
        values = [int(row[a]) for a in node.attributes]
        if all(x < 0 for x in values):
            continue
        ok = [all(x < 0 or x == s for x, s in zip(values, combo))
              for combo in itertools.product(*(range(cards[a]) for a in node.attributes))]
        out[1 + v] = ok.index(True) if min(values) >= 0 else np.asarray(ok, dtype=float)
    return out


def pgmpy_posteriors(network, names, states, model, X) -> np.ndarray:
    """P(class | observed attributes) by pgmpy's variable elimination, the variables found by
    position (``names`` in the file's order, ``states`` each one's in its order). A joined
    node partly observed is queried with the class and summed over its consistent states."""
    inference = PrunedOnce(network)
    out = []
    for row in X:
        hard, soft = {}, {}
        for v, e in evidence(model, row).items():
            if isinstance(e, int):
                hard[names[v]] = states[names[v]][e]
            else:
                soft[names[v]] = e
        q = inference.query([names[0], *soft], evidence=hard, show_progress=False)
        table = q.values
        for name, likelihood in soft.items():
            shape = [1] * table.ndim
            shape[q.variables.index(name)] = likelihood.size
            table = table * likelihood.reshape(shape)
        keep = q.variables.index(names[0])
        p = table.sum(axis=tuple(i for i in range(table.ndim) if i != keep))
        out.append(p[[q.state_names[names[0]].index(s) for s in states[names[0]]]] / p.sum())
    return np.asarray(out)


def pgmpy_bif(path, model, X) -> np.ndarray:
    reader = GrammarsOnce(str(path))
    network = reader.get_model()
    assert network.check_model()
    return pgmpy_posteriors(network, reader.variable_names, reader.variable_states, model, X)


def pyagrum_posteriors(path, model, X) -> np.ndarray:
    """P(class | observed attributes) by pyAgrum's exact inference (lazy propagation)."""
    bn = gum.loadBN(str(path))
    names = [bn.variable(i).name() for i in bn.nodes()]  # in the file's order
    inference = gum.LazyPropagation(bn)
    out = []
    for row in X:
        inference.setEvidence({names[v]: e if isinstance(e, int) else e.tolist()
                               for v, e in evidence(model, row).items()})
        inference.makeInference()
        out.append(inference.posterior(names[0]).toarray())
    return np.asarray(out)
