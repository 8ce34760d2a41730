"""Time and peak memory of 10-fold CV: bayesbench's nb and tan beside their peers.

Peers, each where installed: scikit-learn's CategoricalNB, pgmpy's TAN
(TreeSearch "tan" + DiscreteBayesianNetwork), Weka's NaiveBayes and its TAN
(BayesNet, TAN search with the ENTROPY score, SimpleEstimator alpha 0.5; run
as a subprocess per fold on ARFF files written to a temporary directory).

The data are synthetic with real dependencies: a class with ``--classes``
values, and attributes of 2 to 5 values, each depending on the class and on
one earlier attribute (a random tree), through sharp random conditional
tables.

Every Python method runs its folds in a forked child process, so peak memory
is the child's resident high-water mark minus its size at the fork (the data
itself excluded). Weka's figure is the whole JVM's peak resident size, and
its time includes JVM start-up and ARFF parsing of the fold files. Slow peers
can be measured on fewer folds (``--peer-folds``) and their time scaled to 10
folds; the table says which.

Usage::

    python benchmarks/bench_discrete.py                       # 100 000 x 20, a couple of minutes
    python benchmarks/bench_discrete.py --rows 1000000 --attributes 50 --peer-folds 1
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

WEKA_JAR = Path("/usr/share/java/weka.jar")

# Filled before forking, so that child processes share them without pickling.
DATA: dict = {}


def make_data(rows: int, attributes: int, n_classes: int, seed: int):
    """Codes (uint8), class codes and cardinalities of a tree-structured ANB sample."""
    rng = np.random.default_rng(seed)
    y = rng.choice(n_classes, size=rows, p=rng.dirichlet(np.full(n_classes, 5.0)))
    cards = rng.integers(2, 6, attributes)
    X = np.empty((rows, attributes), dtype=np.uint8)
    for j in range(attributes):
        parent = int(rng.integers(0, j)) if j else None
        r_pa = 1 if parent is None else int(cards[parent])
        cpt = rng.dirichlet(np.full(int(cards[j]), 0.7), size=(n_classes, r_pa))
        cum = np.cumsum(cpt, axis=-1)
        pa = np.zeros(rows, dtype=np.int64) if parent is None else X[:, parent]
        u = rng.random(rows)
        X[:, j] = (u[:, None] > cum[y, pa][:, :-1]).sum(axis=1)
    return X, y.astype(np.int64), cards.astype(np.int64)


def stratified_folds(y: np.ndarray, k: int, seed: int) -> np.ndarray:
    """Fold number of every row: each class shuffled and dealt round robin."""
    rng = np.random.default_rng(seed)
    fold = np.empty(y.shape[0], dtype=np.int64)
    offset = 0
    for c in np.unique(y):
        rows = rng.permutation(np.flatnonzero(y == c))
        fold[rows] = (np.arange(rows.size) + offset) % k
        offset += rows.size
    return fold


# ------------------------------------------------------------------ methods
def fit_predict_bayesbench(learner, alpha):
    def run(Xtr, ytr, Xte):
        from bayesbench import make_classifier
        model = make_classifier(learner, alpha=alpha)
        model.fit(Xtr, ytr, cardinalities=DATA["cards"], n_classes=DATA["k"])
        return model.predict(Xte)
    return run


def fit_predict_categorical_nb(Xtr, ytr, Xte):
    from sklearn.naive_bayes import CategoricalNB
    model = CategoricalNB(alpha=1.0, min_categories=DATA["cards"]).fit(Xtr, ytr)
    return model.predict(Xte)


def fit_predict_pgmpy_tan(Xtr, ytr, Xte):
    import logging

    import pandas as pd
    from pgmpy.estimators import TreeSearch
    from pgmpy.models import DiscreteBayesianNetwork
    from pgmpy.parameter_estimator import DiscreteBayesianEstimator
    from pgmpy import config
    config.set_show_progress(False)
    logging.getLogger("pgmpy").setLevel(logging.ERROR)
    names = [f"x{j}" for j in range(Xtr.shape[1])]
    states = {n: list(range(int(c))) for n, c in zip(names, DATA["cards"])}
    states["class"] = list(range(DATA["k"]))
    train = pd.DataFrame(Xtr.astype(np.int64), columns=names)
    train["class"] = ytr
    dag = TreeSearch(train, root_node="x0", n_jobs=1).estimate(
        estimator_type="tan", class_node="class", show_progress=False)
    model = DiscreteBayesianNetwork(dag.edges())
    model.fit(train, estimator=DiscreteBayesianEstimator(
        prior_type="dirichlet", pseudo_counts=0.5, state_names=states))
    test = pd.DataFrame(Xte.astype(np.int64), columns=names)
    return model.predict(test, n_jobs=1)["class"].to_numpy()


METHODS = {
    # name: (family, kind, runner)
    "bayesbench nb": ("nb", "python", fit_predict_bayesbench("nb", 1.0)),
    "sklearn CategoricalNB": ("nb", "python", fit_predict_categorical_nb),
    "weka NaiveBayes": ("nb", "weka", ["weka.classifiers.bayes.NaiveBayes"]),
    "bayesbench tan": ("tan", "python", fit_predict_bayesbench("tan", 0.5)),
    "pgmpy TAN": ("tan", "python", fit_predict_pgmpy_tan),
    "weka TAN": ("tan", "weka", [
        "weka.classifiers.bayes.BayesNet", "-D",
        "-Q", "weka.classifiers.bayes.net.search.local.TAN", "--", "-S", "ENTROPY",
        "-E", "weka.classifiers.bayes.net.estimate.SimpleEstimator", "--", "-A", "0.5"]),
}
OURS = {"nb": "bayesbench nb", "tan": "bayesbench tan"}


def _status_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def _python_child(runner, folds, conn):
    start_rss = _status_kb("VmRSS")
    X, y, fold = DATA["X"], DATA["y"], DATA["fold"]
    correct = 0
    tested = 0
    t0 = time.perf_counter()
    for f in folds:
        test = fold == f
        pred = runner(X[~test], y[~test], X[test])
        correct += int((np.asarray(pred) == y[test]).sum())
        tested += int(test.sum())
    seconds = time.perf_counter() - t0
    conn.send((seconds, (_status_kb("VmHWM") - start_rss) / 1024, correct / tested))
    conn.close()


def run_python(runner, folds):
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_python_child, args=(runner, folds, child))
    proc.start()
    child.close()
    try:
        result = parent.recv()
    except EOFError:
        result = None
    proc.join()
    return result


def write_arff(path: Path, X: np.ndarray, y: np.ndarray, cards, k: int):
    import pandas as pd
    with open(path, "w") as fh:
        fh.write("@relation bench\n")
        for j, c in enumerate(cards):
            fh.write(f"@attribute x{j} {{{','.join(map(str, range(int(c))))}}}\n")
        fh.write(f"@attribute class {{{','.join(map(str, range(k)))}}}\n@data\n")
        frame = pd.DataFrame(X)
        frame["class"] = y
        frame.to_csv(fh, header=False, index=False)


def run_weka(options, folds, workdir: Path, heap: str):
    X, y, fold = DATA["X"], DATA["y"], DATA["fold"]
    seconds, peak, correct, tested = 0.0, 0.0, 0, 0
    for f in folds:
        test = fold == f
        train_path, test_path = workdir / f"train{f}.arff", workdir / f"test{f}.arff"
        if not train_path.exists():
            write_arff(train_path, X[~test], y[~test], DATA["cards"], DATA["k"])
            write_arff(test_path, X[test], y[test], DATA["cards"], DATA["k"])
        cmd = ["java", f"-Xmx{heap}", "-cp", str(WEKA_JAR), options[0],
               "-t", str(train_path), "-T", str(test_path), "-o", "-v", *options[1:]]
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = proc.communicate()
        seconds += time.perf_counter() - t0
        # communicate() reaped the child; its rusage is in RUSAGE_CHILDREN only as a
        # maximum over all children, so Weka runs are measured one per process tree.
        peak = max(peak, _children_maxrss_mb())
        if proc.returncode != 0:
            print(f"  weka failed: {err.strip().splitlines()[-1] if err.strip() else proc.returncode}",
                  file=sys.stderr)
            return None
        correct += _weka_correct(out)
        tested += int(test.sum())
    return seconds, peak, correct / tested


# One Java harness for every in-JVM timing (bench_aode.py, bench_ande.py): it loads an ARFF
# file and the same fold numbers as the Python side, runs every fold once per pass (the first
# pass untimed, so that the JIT has warmed up), and prints per pass the fit and predict
# seconds, the timing thread's CPU seconds and the error. The classifier is named by class
# and options, through interfaces Weka 3.6 and 3.9 both have, so it compiles against either.
FOLD_TIMER = r"""
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.*;
import java.util.*;
import weka.classifiers.Classifier;
import weka.core.Instances;
import weka.core.OptionHandler;
import weka.core.converters.ConverterUtils.DataSource;

public class FoldTimer {
    public static void main(String[] args) throws Exception {
        Instances data = new DataSource(args[0]).getDataSet();
        data.setClassIndex(data.numAttributes() - 1);
        List<String> lines = Files.readAllLines(Paths.get(args[1]));
        int folds = Integer.parseInt(args[2]), passes = Integer.parseInt(args[3]);
        String[] options = Arrays.copyOfRange(args, 5, args.length);
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        for (int pass = 0; pass < passes; pass++) {
            double fit = 0, predict = 0, cpu = 0;
            int wrong = 0;
            for (int f = 0; f < folds; f++) {
                Instances train = new Instances(data, 0), test = new Instances(data, 0);
                for (int i = 0; i < data.numInstances(); i++) {
                    (Integer.parseInt(lines.get(i).trim()) == f ? test : train).add(data.instance(i));
                }
                long t0 = System.nanoTime(), c0 = bean.getCurrentThreadCpuTime();
                Classifier model = (Classifier) Class.forName(args[4]).getDeclaredConstructor().newInstance();
                ((OptionHandler) model).setOptions(options.clone());
                model.buildClassifier(train);
                long t1 = System.nanoTime();
                for (int i = 0; i < test.numInstances(); i++) {
                    double[] dist = model.distributionForInstance(test.instance(i));
                    int best = 0;
                    for (int c = 1; c < dist.length; c++) if (dist[c] > dist[best]) best = c;
                    if (best != (int) test.instance(i).classValue()) wrong++;
                }
                fit += (t1 - t0) / 1e9;
                predict += (System.nanoTime() - t1) / 1e9;
                cpu += (bean.getCurrentThreadCpuTime() - c0) / 1e9;
            }
            System.out.println(pass + " " + fit + " " + predict + " " + cpu + " "
                               + ((double) wrong / data.numInstances()));
        }
    }
}
"""


def compile_fold_timer(workdir: Path, classpath: str) -> bool:
    """Compile FOLD_TIMER into workdir against classpath; False (javac's message on stderr)
    when javac is missing or fails."""
    if shutil.which("javac") is None:
        return False
    (workdir / "FoldTimer.java").write_text(FOLD_TIMER)
    proc = subprocess.run(["javac", "-nowarn", "-cp", classpath, "-d", str(workdir),
                           str(workdir / "FoldTimer.java")], capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"javac failed: {proc.stderr.strip()}", file=sys.stderr)
    return proc.returncode == 0


def run_fold_timer(workdir: Path, classpath: str, arff: Path, folds: int, heap: str,
                   classifier: str, options=()):
    """Fit and predict seconds, CPU seconds (the timing thread's) and the error of the
    harness's timed (second) pass over workdir/folds.txt, and the JVM's peak resident MiB."""
    cmd = ["java", f"-Xmx{heap}", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-cp",
           f"{classpath}{os.pathsep}{workdir}", "FoldTimer", str(arff),
           str(workdir / "folds.txt"), str(folds), "2", classifier, *options]
    out, err = workdir / "out.txt", workdir / "err.txt"
    with open(out, "w") as stdout, open(err, "w") as stderr:
        proc = subprocess.Popen(cmd, stdout=stdout, stderr=stderr)
        # wait4: this child's own resource usage (its peak resident set in KiB).
        _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"Weka harness failed: {err.read_text().strip()[-300:]}")
    _, fit, predict, cpu, error = out.read_text().strip().split("\n")[-1].split()
    return float(fit), float(predict), float(cpu), float(error), usage.ru_maxrss / 1024


def _children_maxrss_mb() -> float:
    import resource
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def _weka_correct(output: str) -> int:
    # The test-set section comes last; its first "Correctly Classified" line counts.
    section = output.split("=== Error on test data ===")[-1]
    for line in section.splitlines():
        if line.startswith("Correctly Classified Instances"):
            return int(line.split()[3])
    raise RuntimeError("could not read Weka's test-set accuracy")


def run_weka_isolated(options, folds, workdir, heap):
    """Run the Weka folds in a forked child, so RUSAGE_CHILDREN holds only this method's JVMs."""
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)

    def target(conn):
        conn.send(run_weka(options, folds, workdir, heap))
        conn.close()
    proc = ctx.Process(target=target, args=(child,))
    proc.start()
    child.close()
    try:
        result = parent.recv()
    except EOFError:
        result = None
    proc.join()
    return result


def available(name: str, kind: str) -> str | None:
    """Why a method cannot run here, or None."""
    if kind == "weka":
        if not WEKA_JAR.exists() or shutil.which("java") is None:
            return "Weka or java not installed"
        return None
    module = {"sklearn CategoricalNB": "sklearn", "pgmpy TAN": "pgmpy"}.get(name)
    if module:
        try:
            __import__(module)
        except ImportError:
            return f"{module} not installed"
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--attributes", type=int, default=20)
    parser.add_argument("--classes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--peer-folds", type=int, default=1,
                        help="folds measured for pgmpy and Weka's TAN (time scaled to 10); default 1")
    parser.add_argument("--methods", default=",".join(METHODS),
                        help="comma-separated subset of: " + ", ".join(METHODS))
    parser.add_argument("--java-heap", default="8g")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    args = parser.parse_args(argv)

    k = 10
    # pgmpy's predict draws a progress bar; tqdm reads this when it is imported.
    os.environ.setdefault("TQDM_DISABLE", "1")
    # Imported before forking, so that no method's time includes importing a library.
    import bayesbench.models.learners.naive_bayes  # noqa: F401
    import bayesbench.models.learners.tan  # noqa: F401
    for module in ("sklearn.naive_bayes", "pgmpy.estimators", "pgmpy.models",
                   "pgmpy.parameter_estimator"):
        try:
            __import__(module)
        except ImportError:
            pass
    t0 = time.perf_counter()
    X, y, cards = make_data(args.rows, args.attributes, args.classes, args.seed)
    DATA.update(X=X, y=y, cards=cards, k=args.classes, fold=stratified_folds(y, k, args.seed))
    print(f"data: {args.rows} rows x {args.attributes} attributes (2-5 values), "
          f"{args.classes} classes, generated in {time.perf_counter() - t0:.1f} s; "
          f"{os.cpu_count()} cores", file=sys.stderr)

    slow = {"pgmpy TAN", "weka TAN"}
    results = {}
    with tempfile.TemporaryDirectory(prefix="bench_discrete_") as tmp:
        for name in [m.strip() for m in args.methods.split(",") if m.strip()]:
            if name not in METHODS:
                parser.error(f"unknown method {name!r}; known: {', '.join(METHODS)}")
            family, kind, runner = METHODS[name]
            reason = available(name, kind)
            if reason:
                results[name] = (family, None, reason)
                continue
            folds = list(range(min(args.peer_folds, k) if name in slow else k))
            print(f"running {name} on {len(folds)} fold(s) ...", file=sys.stderr)
            if kind == "weka":
                out = run_weka_isolated(runner, folds, Path(tmp), args.java_heap)
            else:
                out = run_python(runner, folds)
            results[name] = (family, out, len(folds)) if out else (family, None, "failed")

    headers = ["method", "folds run", "s / fold", "s (10 folds)", "peak MB", "accuracy",
               "x bayesbench"]
    rows = []
    for name, (family, out, info) in results.items():
        if out is None:
            rows.append([name, "-", "-", "-", "-", "-", f"({info})"])
            continue
        seconds, peak, acc = out
        per_fold = seconds / info
        ours = results.get(OURS[family])
        ratio = "-"
        if ours and ours[1] is not None:
            ratio = per_fold / max(ours[1][0] / ours[2], 1e-9)
        folds_run = f"{info}" + ("" if info == k else " (time scaled)")
        rows.append([name, folds_run, per_fold, per_fold * k, round(peak), acc, ratio])
    from bayesbench.report.tables import render
    print(render(rows, headers, "markdown" if args.markdown else "text", floatfmt=".4g",
                 caption=f"10-fold CV, {args.rows} x {args.attributes}, {args.classes} classes"))


if __name__ == "__main__":
    main()
