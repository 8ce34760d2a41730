"""What a run did, in words: the protocol section of its report page, and the validation a
table's mean is taken over (its caption)."""
from __future__ import annotations

from ...data.chunks import is_chunked
from ...evaluation.splits import tasks_words
from ...spec import Experiment
from .decomposition import caption as decomposition_caption
from .learning_curves import CURVE_FILE

__all__ = ["protocol", "validation_words"]


def protocol(experiment: Experiment, records) -> list[tuple]:
    """What was run, for the report's protocol section."""
    pre, spec = experiment.preprocess, experiment.compare
    failed = sum(r["status"] != "ok" for r in records)
    return [("data sets", [d.name for d in experiment.datasets]),
            ("classifiers", [f"{c.label} ({c.learner}{_params(c.params)})"
                             for c in experiment.classifiers]),
            ("validation", validation_words(experiment) if experiment.evaluation is None
                           else decomposition_caption(experiment.evaluation)),
            ("preprocessing", f"impute {pre.impute}, discretize {pre.discretize}"
                              + (f" ({pre.bins} bins)" if pre.discretize in ("width", "frequency") else "")
                              + (f" (at most {pre.max_cuts} cuts)" if pre.discretize == "mdl"
                                 and pre.max_cuts is not None else "")
                              + f", fitted on the {'training fold' if pre.scope == 'fold' else 'whole data set'}"),
            ("seed", experiment.seed), ("metrics", list(experiment.metrics)),
            ("comparison", f"{spec.metric or experiment.metrics[0]}, baseline "
                           f"{spec.baseline or experiment.classifiers[0].label}, "
                           f"{spec.test if experiment.evaluation is None else 'no fold test'}, "
                           f"alpha {spec.alpha:g}, rope {spec.rope:g}"),
            ("tasks", f"{len(records)} ({failed} failed)")]


def _params(params: dict) -> str:
    return "".join(f", {k}={v}" for k, v in params.items() if k != "random_state")


def _hashed(experiment: Experiment) -> list[str]:
    """The data sets read in chunks: their folds are dealt by a hash of the row index."""
    return [d.name for d in experiment.datasets if d.chunked or is_chunked(d.path)]


def validation_words(experiment: Experiment) -> str:
    """The tasks a mean is taken over, in words."""
    evaluation = experiment.evaluation
    if evaluation is not None and evaluation.repeats > 1:
        return (f"the {evaluation.repeats} x {evaluation.iterations} iterations of "
                f"{evaluation.repeats} independent bias-variance decompositions "
                f"({evaluation.method})")
    if evaluation is not None:
        return (f"the {evaluation.iterations} iterations of a bias-variance decomposition "
                f"({evaluation.method})")
    sizes, hashed = experiment.cv.train_sizes, _hashed(experiment)
    cv = experiment.cv
    words = (f"{cv.n_repetitions} repetition(s) of {_hashed_words(cv, hashed)}" if hashed
             else tasks_words(cv))
    return words + (f", at each data set's largest of the training sizes {list(sizes)} (every "
                    f"size in summary/{CURVE_FILE} and the learning-curve figures)"
                    if sizes else "")


def _hashed_words(cv, hashed) -> str:
    """The validation in words when ``hashed`` (data sets read in chunks) have their folds
    dealt by a hash of the row index, stratified by class only when ``cv`` says so."""
    how = ("a class-stratified hash of the row index" if cv.stratifies(chunked=True)
           else "a hash of the row index (not stratified)")
    return (f"{cv.setting('folds')}-fold cross-validation, folds dealt by {how} on "
            f"{', '.join(hashed)}" + (", stratified on the others" if cv.stratifies() else ""))
