"""What a chunked data set (a directory or glob of files, or one file declared ``chunked``,
docs/large-data.md) allows of the rest of a config, checked before any result directory is
made: metrics that add up over chunks, classifiers fitted from counts (or in passes over
the rows), k-fold with balanced folds, no imputation or noise, and numeric attributes
discretized by a method that counts."""
from __future__ import annotations

from ..data.chunks import is_chunked, numeric_look
from ..errors import BayesbenchError
from ..evaluation.chunked_run import NOT_CHUNKED
from ..models.registry import make_classifier
from ..models.core.sufficient import fits_from_chunks, fits_from_statistics
from ..preprocess.discretize import chunked_methods
from ..spec import Experiment
from .problems import Problems


def _from_counts(spec) -> bool:
    if spec.tune is not None or spec.steps or spec.input not in (None, "codes"):
        return False
    try:
        # A chunked data set keeps no rows beside its counts.
        clf = make_classifier(spec.learner, **spec.params)
        return fits_from_statistics(clf, rows=False) or fits_from_chunks(clf)
    except Exception:  # noqa: BLE001 - a classifier that cannot be made is reported elsewhere
        return True


def _split_problems(run: Experiment, at: str, problems: Problems, why: str) -> None:
    if run.cv.kind != "kfold":
        problems.add(f"{at}cv", f"{run.cv.kind} splits need every row at once; {why} takes k-fold")
    elif run.cv.setting("fold_size", "balanced") != "balanced":
        problems.add(f"{at}cv.fold_size", f"{why} deals its folds by a hash of the row index, "
                                          f"sizes equal only in expectation: leave the key out")
    if run.preprocess.impute != "none":
        problems.add(f"{at}preprocess.impute", f"{why} keeps missing values missing: use none")
    if run.preprocess.noise is not None:
        problems.add(f"{at}preprocess.noise", f"{why} takes no noise")


def _numeric(experiment: Experiment, chunked: list) -> tuple[str, str] | None:
    """``(why, attribute)`` of the first chunked data set that looks numeric, if any."""
    for i in chunked:
        d = experiment.datasets[i]
        try:
            names = numeric_look(d.path, d.class_attribute, attributes=d.attributes,
                                 delimiter=d.delimiter)
        except BayesbenchError:  # an unreadable data set is reported when it is read
            continue
        if names:
            return f"the chunked data set '{d.name}' (datasets[{i}])", names[0]
    return None


def _discretize_problems(run: Experiment, numeric, at: str, problems: Problems) -> None:
    if numeric is None:
        return
    why, name = numeric
    usable = chunked_methods()
    if run.preprocess.discretize not in usable:
        problems.add(f"{at}preprocess.discretize", f"{why} has a numeric attribute '{name}', which "
                                            f"chunked data discretize by {' or '.join(usable)}")


def chunked_problems(raw: dict, experiment: Experiment, origins: list, problems: Problems) -> None:
    """Add a problem for every part of the experiment that a chunked data set refuses;
    ``origins[i]`` is the index in ``classifiers`` of the entry of classifier ``i``."""
    chunked = [i for i, d in enumerate(experiment.datasets) if d.chunked or is_chunked(d.path)]
    if not chunked:
        return
    why = (f"the chunked data set '{experiment.datasets[chunked[0]].name}' "
           f"(datasets[{chunked[0]}])")
    for j, metric in enumerate(experiment.metrics):
        if metric in NOT_CHUNKED:
            problems.add(f"metrics[{j}]", f"'{metric}' is not computed for {why} (it is no "
                                          f"sum over rows, which chunks add up)")
    if experiment.compare.metric in NOT_CHUNKED:
        problems.add("compare.metric", f"'{experiment.compare.metric}' is not computed for {why}")
    for spec, i in zip(experiment.classifiers, origins):
        if not _from_counts(spec):
            problems.add(f"classifiers[{i}]", f"'{spec.label}' is not fitted from counts "
                                       f"(fit_statistics or fit_chunks, untuned, codes, no steps), which "
                                       f"{why} needs")
    numeric = _numeric(experiment, chunked)
    arms = raw.get("arms") if isinstance(raw.get("arms"), list) else []
    for k, run in enumerate(experiment.runs()):
        own = arms[k] if experiment.arms and k < len(arms) and isinstance(arms[k], dict) else {}
        at = f"arms[{k}]." if experiment.arms and ("cv" in own or "preprocess" in own) else ""
        _split_problems(run, at, problems, why)
        _discretize_problems(run, numeric, at, problems)
