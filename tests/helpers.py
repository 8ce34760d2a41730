"""Helpers that several test modules share, imported as ``helpers`` (fixtures live in conftest.py)."""
import csv
import re

import numpy as np
import pandas as pd

from bayesbench.models.anb import AugmentedNaiveBayes
from bayesbench.models.structure import Node, Structure

# The fields of a record that vary between identical runs.
VARYING = ("fit_seconds", "predict_seconds", "checksum")


def without_timings(record: dict) -> dict:
    """A record minus the fields that vary between identical runs (timings, the CPU time
    among the metrics, checksum)."""
    out = {k: v for k, v in record.items() if k not in VARYING}
    if isinstance(out.get("metrics"), dict):
        out["metrics"] = {k: v for k, v in out["metrics"].items() if k != "cpu_seconds"}
    return out


def stable_order(records: list[dict]) -> list[dict]:
    """Records sorted by (data set, repetition, fold, classifier)."""
    return sorted(records, key=lambda r: (r["dataset"], r["repetition"], r["fold"],
                                          r["classifier"]))


def run(config, **options):
    """Run a loaded config, its run options replaced by ``options``; the result of its one run."""
    from dataclasses import replace

    from bayesbench.experiment import run_experiment

    [result] = run_experiment(config.experiment, replace(config.options, **options))
    return result


def small_config(uci_dir, tmp_path, **over):
    """A small experiment on iris and lenses (``over`` replaces top-level keys), into
    ``tmp_path/out``; gnb fails on lenses, which has no numeric attribute."""
    from bayesbench.config import parse_config

    raw = {"name": "t", "seed": 3, "data_dirs": [str(uci_dir)],
           "datasets": ["iris", "lenses"], "cv": {"folds": 4, "repeats": 2},
           "classifiers": ["nb", "gnb", {"name": "fss", "params": {"inner_folds": 3}}],
           "output": str(tmp_path / "out")}
    raw.update(over)
    return parse_config(raw, base_dir=tmp_path)



def random_codes(rng, n, cards, missing=0.0):
    X = np.column_stack([rng.integers(0, c, n) for c in cards])
    if missing:
        X[rng.random(X.shape) < missing] = -1
    return X


class FixedStructure(AugmentedNaiveBayes):
    """The core model over given groups: the reference that the engine must equal."""

    def __init__(self, groups=(), alpha=1.0):
        self.groups = groups
        self.alpha = alpha

    def _learn_structure(self, X, y, cardinalities, n_classes):
        return Structure(tuple(Node(g) for g in self.groups), X.shape[1])


def refit_scores(X, y, cards, k, alpha, folds, groups):
    """Held-out joint log-likelihood of every example, refitting on each training fold."""
    out = np.empty((len(y), k))
    for f in np.unique(folds):
        test = folds == f
        model = FixedStructure(groups, alpha).fit(X[~test], y[~test], cardinalities=cards, n_classes=k)
        out[test] = model._joint_log_likelihood(X[test])
    return out


def random_data(seed, n=150, cards=(3, 2, 4, 3, 2), k=3, missing=0.0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    X = np.column_stack([(y * (j + 1) + rng.integers(0, r, n) * (rng.random(n) < 0.6)) % r
                         for j, r in enumerate(cards)])
    if missing:
        X[rng.random(X.shape) < missing] = -1
    return X, y, list(cards), k


# ---- scores for the comparison ---------------------------------------------------------------

def write_table6_csv(demsar, path):
    """Demšar's Table 6 (AUC of four C4.5 variants on 14 data sets) as a wide CSV of scores."""
    t = demsar["table6"]
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["dataset", *t["classifiers"]])
        for name, row in zip(t["datasets"], t["auc"]):
            w.writerow([name, *row])
    return path


def fold_records(dataset, label, values, *, n_train=450, n_test=50, folds=10, salt="", run="run"):
    """Rows of a records frame: one per fold score in ``values`` (repetition-major)."""
    rows = []
    for j, v in enumerate(values):
        rep, fold = divmod(j, folds)
        rows.append({"dataset": dataset, "repetition": rep, "fold": fold, "classifier": label,
                     "learner": label.lower(), "seed": 1, "fold_id": f"{dataset}-{rep}-{fold}{salt}",
                     "n_train": n_train, "n_test": n_test, "accuracy": v, "error": 1 - v, "run": run})
    return rows


def write_run(run_dir, rows):
    """A result directory holding ``rows`` (from :func:`fold_records`) as finished records."""
    from bayesbench.evaluation.store import RecordWriter

    run_dir.mkdir(parents=True)
    with RecordWriter(run_dir) as w:
        for r in rows:
            record = {k: v for k, v in r.items() if k not in ("accuracy", "error", "run")}
            record.update(status="ok", metrics={"accuracy": r["accuracy"], "error": r["error"]})
            w.append(record)


def with_failures(frame, failures):
    """``frame`` with the given (data set, classifier, repetition) tasks turned into failed
    records (fold 4 of the repetition, or every fold when the repetition is None)."""
    frame = frame.assign(status="ok")
    for ds, label, rep in failures:
        hit = (frame["dataset"] == ds) & (frame["classifier"] == label)
        if rep is not None:
            hit &= (frame["repetition"] == rep) & (frame["fold"] == 4)
        frame.loc[hit, ["accuracy", "error"]] = np.nan
        frame.loc[hit, "status"] = "error"
    return frame


def three_datasets(ttest_ref):
    """Classifiers A, B, C on three data sets whose folds are the corrected-t reference vectors."""
    ex2 = ttest_ref["second_example"]
    a, b = ttest_ref["accuracy_A"], ttest_ref["accuracy_B"]
    rows = []
    for ds, (va, vb, vc) in {"ex1": (a, b, ex2["accuracy_A"]), "ex2": (ex2["accuracy_A"], b, a),
                             "ex3": (b, ex2["accuracy_B"], a)}.items():
        rows += fold_records(ds, "A", va) + fold_records(ds, "B", vb) + fold_records(ds, "C", vc)
    return pd.DataFrame(rows)


def check_latex(text):
    """Assert that ``text`` is a set of well-formed LaTeX tables."""
    assert "\x02" not in text and "\x03" not in text and "\x04" not in text
    envs = re.findall(r"\\(begin|end)\{(table|tabular)\}", text)
    depth = []
    for kind, env in envs:
        if kind == "begin":
            depth.append(env)
        else:
            assert depth and depth.pop() == env
    assert not depth and envs
    for block in re.findall(r"\\begin\{tabular\}\{([lrc]+)\}(.*?)\\end\{tabular\}", text, re.S):
        ncols, body = len(block[0]), block[1]
        lines = [ln for ln in body.strip().splitlines() if ln.endswith(r"\\")]
        assert lines
        for ln in lines:
            cells = re.split(r"(?<!\\)&", ln[:-2])
            assert len(cells) == ncols, ln
        assert body.count(r"\toprule") == body.count(r"\bottomrule") == 1
    # Every brace opened is closed, and no raw special character slipped through.
    stripped = re.sub(r"\\[{}%&_#$]", "", text)
    assert stripped.count("{") == stripped.count("}")
    body_lines = [ln for ln in text.splitlines() if not ln.startswith("%")]
    assert not any(re.search(r"(?<!\\)[_#%]", ln) for ln in body_lines)


def table6_scores(demsar):
    """Demšar's Table 6 as a data sets x classifiers DataFrame of AUCs."""
    t = demsar["table6"]
    return pd.DataFrame(np.array(t["auc"], dtype=float), index=t["datasets"], columns=t["classifiers"])
