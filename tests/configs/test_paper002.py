"""Paper 002 (Mihaljevic, Larranaga, Bielza 2013), Table 3: accuracies of the seven learners.

Protocol of sec. 6.1: incomplete rows removed and numeric attributes
MDL-discretized on the whole data, Laplace smoothing (alpha 1), 5 x 5 stratified
cross-validation, 5 inner folds for FSS and BSEJ, tests at level 0.05 with the
reliability rule. The paper does not say when its greedy searches stop; its
authors' bnclassify stops unless accuracy improves by epsilon = 0.01, which is
used here (with epsilon = 0, BSEJ on kr-vs-kp keeps joining and reaches 97 %,
5 points above the paper). The side-by-side table is printed by

    python tests/configs/test_paper002.py [repeats]
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from bayesbench import make_classifier
from bayesbench.data import load_dataset
from bayesbench.evaluation.schemes import KFold
from bayesbench.evaluation.splits import make_splits
from bayesbench.preprocess.discretize import Discretizer
from bayesbench.preprocess.impute import Imputer

LEARNERS = ("asb", "stan", "fss", "bsej", "ffss", "nb", "tan")
# Table 3 of paper 002, accuracy in %, in the order of LEARNERS.
TABLE3 = {
    "car": (93.3, 93.5, 70.0, 90.0, 85.1, 85.3, 94.1),
    "kr-vs-kp": (94.1, 92.6, 94.1, 92.2, 87.8, 87.8, 92.4),
    "house-votes-84": (94.3, 92.9, 97.0, 91.2, 91.3, 91.2, 93.6),
    "balance-scale": (72.9, 73.2, 73.6, 72.8, 73.3, 73.3, 73.2),
    "primary-tumor": (46.5, 21.3, 42.5, 46.5, 21.3, 48.3, 41.6),
    "tic-tac-toe": (75.3, 74.8, 69.6, 71.7, 70.4, 70.4, 75.8),
}
# Where our implementation of the published algorithm does not reproduce the
# printed number, with the reason (see docs/classifiers.md, "Selective and
# semi-naive learners"); every other cell must be within 2 points.
KNOWN_GAPS = {
    ("car", "bsej"): "the paper's 90.0 +- 1.8 is the model after BSEJ's first step, "
                     "(buying x maint) joined, 89.5 +- 1.7 here; the second step, joining "
                     "lug_boot x safety, gains 3.5 points of inner accuracy, so no stopping "
                     "rule explains the paper's stop: ours takes it and reaches 93.5",
    ("tic-tac-toe", "bsej"): "the first join (middle-left x middle-right) gains 1.5 points of "
                             "inner accuracy and opens the middle row (5.1 more); epsilon 0.01 "
                             "takes both (77 %), 0.02 refuses the first and gives the paper's 72",
    ("tic-tac-toe", "asb"): "ASB augments BSEJ's groups: the middle row joined, as above",
    ("primary-tumor", "stan"): "the paper's STAN scores its FFSS's 21.3 (the largest class): it "
                               "drops the attributes unrelated to the class by FFSS's test, all "
                               "unreliable here; ours tests pairs only and is naive Bayes here",
}
WRAPPER_PARAMS = {"epsilon": 0.01}
SEED = 1


def prepared(uci_dir: Path, name: str):
    ds = load_dataset(uci_dir / f"{name}.arff")
    ds = Imputer("drop").fit(ds).transform(ds)
    ds = Discretizer("mdl").fit(ds).transform(ds)
    return ds.codes(), ds.y, list(ds.cardinalities), ds.n_classes


def cv_accuracy(uci_dir: Path, name: str, learners=LEARNERS, repeats: int = 5, folds: int = 5):
    """Mean and sd over ``repeats x folds`` test folds of each learner's accuracy, in %."""
    X, y, cards, k = prepared(uci_dir, name)
    scores = {learner: [] for learner in learners}
    for rep in range(repeats):
        for split in make_splits(y, KFold.spec(folds=folds, repeats=repeats), seed=SEED,
                                 dataset=name, repetition=rep):
            for learner in learners:
                params = dict(WRAPPER_PARAMS, random_state=1000 * rep + split.fold) if (
                    learner in ("fss", "bsej", "asb")) else {}
                model = make_classifier(learner, **params)
                model.fit(X[split.train], y[split.train], cardinalities=cards, n_classes=k)
                scores[learner].append(np.mean(model.predict(X[split.test]) == y[split.test]))
    return {learner: (100 * np.mean(s), 100 * np.std(s, ddof=1)) for learner, s in scores.items()}


@pytest.mark.parametrize("name", ["car", "house-votes-84", "balance-scale", "primary-tumor",
                                  "tic-tac-toe", pytest.param("kr-vs-kp", marks=pytest.mark.slow)])
def test_accuracies_within_two_points_of_table3(uci_dir, name):
    ours = cv_accuracy(uci_dir, name)
    for learner, published in zip(LEARNERS, TABLE3[name]):
        if (name, learner) in KNOWN_GAPS:
            continue
        mean = ours[learner][0]
        assert abs(mean - published) <= 2.0, (name, learner, round(mean, 1), published)


def test_house_votes_has_the_papers_complete_rows(uci_dir):
    X, y, _, _ = prepared(uci_dir, "house-votes-84")
    assert X.shape == (232, 16) and (X >= 0).all()


def main(repeats: int = 5) -> str:
    from bayesbench.report.tables import render

    uci_dir = Path(__file__).resolve().parents[2] / "datasets"
    rows = []
    for name, published in TABLE3.items():
        ours = cv_accuracy(uci_dir, name, repeats=repeats)
        row = [name]
        for learner, p in zip(LEARNERS, published):
            mean, sd = ours[learner]
            flag = " *" if abs(mean - p) > 2 else ""
            row.append(f"{mean:.1f}±{sd:.1f} / {p:.1f}{flag}")
        rows.append(row)
    return render(rows, ["data set"] + [f"{lr} (ours / 002)" for lr in LEARNERS], "markdown")


if __name__ == "__main__":
    print(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5))
