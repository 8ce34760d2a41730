"""Exact inference in every exported network against the learner's own ``predict_proba``,
with pgmpy and pyAgrum, on complete rows and on rows with missing values (``missing="exact"``).

For every learner whose model is one network (the augmented naive Bayes family of the
registry) and every data set: fit on ``--train`` rows, export the network (BIF for pgmpy,
XMLBIF ``.bifxml`` for pyAgrum, whose BIF reader keeps probabilities in single precision),
read it back, and compute ``P(class | observed attributes)`` by each library's exact
inference (pgmpy's variable elimination, pyAgrum's lazy propagation) on ``--test`` rows:

- complete: the test rows as they are (the data sets without missing values);
- missing: the same rows with each value made missing with probability ``--mask`` (seeded),
  and every row of house-votes-84 (its own missing values, 203 of 435 rows), the model
  fitted on all of them;

and prints the largest absolute difference from ``predict_proba`` per learner, data set and
library, with the CPU seconds our ``predict_proba`` and pyAgrum took on the missing rows.
Learners that take a seed (the wrappers' inner folds) are given 0. A
missing attribute is no evidence; a joined node (BSEJ, ASB, FSSJ) whose attributes are
partly missing gets as evidence the set of its states consistent with the observed ones
(pyAgrum: a 0/1 likelihood; pgmpy: the joint posterior of the class and the node, summed
over the set). It exits 1 when a difference exceeds ``--tolerance``.

    python benchmarks/check_network_inference.py                  # everything (some minutes)
    python benchmarks/check_network_inference.py --learners kdb,tan --datasets house-votes-84
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bayesbench.data import load_dataset, locate_dataset
from bayesbench.models.learners.anb import AugmentedNaiveBayes
from bayesbench.models.registry import classifier_class, list_classifiers, make_classifier

# The peers' exact inference, shared with tests/models/core/test_export.py.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from peer_inference import pgmpy_bif, pyagrum_posteriors  # noqa: E402

LEARNERS = [n for n in list_classifiers() if issubclass(classifier_class(n), AugmentedNaiveBayes)]
DATASETS = ["car", "nursery", "kr-vs-kp", "house-votes-84"]
SETTINGS = {"kdb": {"k": 2}}  # kdb's default; named so that the table says it


def made(learner):
    """``learner`` with its settings, seeded (the wrappers' inner folds) where it takes a seed."""
    model = make_classifier(learner, **SETTINGS.get(learner, {}))
    if "random_state" in model.get_params():
        model.set_params(random_state=0)
    return model


def masked(X, share, seed):
    X = X.astype(np.int64)  # a copy
    X[np.random.default_rng(seed).random(X.shape) < share] = -1
    return X


def rows(name, n_train, n_test, share):
    """``(X_train, y_train, X_complete, X_missing, dataset)`` of one data set."""
    ds = load_dataset(locate_dataset(name))
    X = ds.codes().astype(np.int64)
    if (X < 0).any():  # its own missing values: fit on every row, predict every row
        return X, ds.y, None, X, ds
    order = np.random.default_rng(24).permutation(len(X))
    test, train = order[:n_test], order[n_test:n_test + n_train]
    return X[train], ds.y[train], X[test], masked(X[test], share, 35), ds


def check(learner, name, args, where):
    X, y, complete, missing, ds = rows(name, args.train, args.test, args.mask)
    model = made(learner).fit(
        X, y, cardinalities=ds.cardinalities, n_classes=ds.n_classes,
        feature_names=[a.name for a in ds.attributes])
    bif, xml = where / "m.bif", where / "m.bifxml"
    model.to_bif(bif)
    model.to_xmlbif(xml)
    line = {}
    if complete is not None:
        expected = model.predict_proba(complete)
        line["pgmpy complete"] = np.abs(pgmpy_bif(bif, model, complete) - expected).max()
        line["pyAgrum complete"] = np.abs(pyagrum_posteriors(xml, model, complete) - expected).max()
    model.set_params(missing="exact")
    t0 = time.process_time()
    expected = model.predict_proba(missing)
    ours = time.process_time() - t0
    line["pgmpy missing"] = np.abs(pgmpy_bif(bif, model, missing) - expected).max()
    t0 = time.process_time()
    line["pyAgrum missing"] = np.abs(pyagrum_posteriors(xml, model, missing) - expected).max()
    theirs = time.process_time() - t0
    model.set_params(missing="skip")
    line["skip vs exact"] = np.abs(model.predict_proba(missing) - expected).max()
    return line, ours, theirs


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", default=",".join(LEARNERS))
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--train", type=int, default=1500)
    parser.add_argument("--test", type=int, default=1000)
    parser.add_argument("--mask", type=float, default=0.3)
    parser.add_argument("--tolerance", type=float, default=1e-9)
    args = parser.parse_args(argv)
    columns = ["pgmpy complete", "pyAgrum complete", "pgmpy missing", "pyAgrum missing",
               "skip vs exact"]
    print("| learner | data set | " + " | ".join(columns) + " | ours s | pyAgrum s |")
    print("|" + " --- |" * (len(columns) + 4))
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for learner in args.learners.split(","):
            for name in args.datasets.split(","):
                line, ours, theirs = check(learner, name, args, Path(tmp))
                worst = max([worst] + [v for k, v in line.items() if k != "skip vs exact"])
                cells = [f"{line[c]:.1e}" if c in line else "-" for c in columns]
                label = learner + "".join(f" {k}={v}" for k, v in SETTINGS.get(learner, {}).items())
                print(f"| {label} | {name} | " + " | ".join(cells)
                      + f" | {ours:.3f} | {theirs:.3f} |", flush=True)
    print(f"largest difference from a peer: {worst:.1e} (tolerance {args.tolerance:g})")
    return int(worst > args.tolerance)


if __name__ == "__main__":
    sys.exit(main())
