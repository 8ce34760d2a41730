"""Kernel naive Bayes, fit + predict: bayesbench's kernel_nb against Weka 3.6's NaiveBayes -K.

Each data set is split as ``-split-percentage 50 -preserve-order`` splits it: the first
round(rows / 2) rows train, the rest test. Both sides hold the data in memory before their
clocks start (JVM start-up and ARFF parsing left out):

- ``bayesbench kernel_nb``: ``KernelNaiveBayes().fit`` on the training half plus
  ``predict_proba`` on the test half, in this process, on the runner's input (``frame``: a
  DataFrame, nominal attributes categorical, NaN missing);
- ``weka NaiveBayes -K (in JVM)``: a small Java harness (compiled here with ``javac``) loads
  the same ARFF file, times ``buildClassifier`` on the first half plus
  ``distributionForInstance`` on every row of the second with ``System.nanoTime`` and the
  timing thread's CPU time, and writes the distributions out after the clock stops. Each
  JVM first runs once untimed (``--weka-passes 2``) so that its JIT compiler has warmed up;
  on the synthetic set (a single pass of which takes minutes) the first pass is timed
  (``--synthetic-passes 1``), its warm-up a negligible share.

Data: ``synthetic``, ``--rows`` x ``--attributes`` numbers (two classes of equal prior,
each attribute normal with unit variance and a class mean shift between 0.1 and 1.0, full
double precision, written with 17 digits so that Java reads the same doubles), and the
UCI files of ``--datasets`` from ``datasets/``.

Each side runs ``--repeats`` times, interleaved; the table gives medians. "x bayesbench" is
the row's time over bayesbench's (> 1: bayesbench faster); the CPU columns (this process;
the JVM's timing thread alone) are steadier than wall time on a shared machine. "max |dp|"
is the largest difference between the two sides' class probabilities over the test rows,
"within 0.0015" the share of test rows whose every class probability is within 0.0015:
kernel_nb repeats Weka's kernel sums kernel by kernel where a window holds at most
``exact_limit`` (512) kernels, and sums every kernel (without Weka's 1 % truncation) beyond,
as on the synthetic set.

    python benchmarks/bench_continuous.py                      # 10^5 x 20 and 8 UCI sets
    python benchmarks/bench_continuous.py --rows 20000 --datasets segment --repeats 1
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
WEKA_JAR = Path("/usr/share/java/weka.jar")
DATASETS = ["segment", "letter", "vehicle", "pima-indians-diabetes", "wdbc", "ionosphere",
            "german-credit", "hepatitis"]

HALF_TIMER = r"""
import java.io.*;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.*;
import weka.classifiers.Classifier;
import weka.core.Instances;
import weka.core.OptionHandler;
import weka.core.converters.ConverterUtils.DataSource;

public class HalfTimer {
    public static void main(String[] args) throws Exception {
        Instances data = new DataSource(args[0]).getDataSet();
        data.setClassIndex(data.numAttributes() - 1);
        int passes = Integer.parseInt(args[1]);
        int n = data.numInstances(), nTrain = (int) Math.round(n * 50.0 / 100);
        Instances train = new Instances(data, 0, nTrain);
        Instances test = new Instances(data, nTrain, n - nTrain);
        String[] options = Arrays.copyOfRange(args, 4, args.length);
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        double[][] dist = new double[test.numInstances()][];
        for (int pass = 0; pass < passes; pass++) {
            long t0 = System.nanoTime(), c0 = bean.getCurrentThreadCpuTime();
            Classifier model = (Classifier) Class.forName(args[3]).getDeclaredConstructor().newInstance();
            ((OptionHandler) model).setOptions(options.clone());
            model.buildClassifier(train);
            long t1 = System.nanoTime();
            for (int i = 0; i < test.numInstances(); i++) {
                dist[i] = model.distributionForInstance(test.instance(i));
            }
            long t2 = System.nanoTime();
            System.out.println(pass + " " + (t1 - t0) / 1e9 + " " + (t2 - t1) / 1e9 + " "
                               + (bean.getCurrentThreadCpuTime() - c0) / 1e9);
        }
        try (PrintWriter out = new PrintWriter(new BufferedWriter(new FileWriter(args[2])))) {
            for (double[] d : dist) {
                StringBuilder line = new StringBuilder();
                for (int c = 0; c < d.length; c++) line.append(c > 0 ? " " : "").append(d[c]);
                out.println(line);
            }
        }
    }
}
"""


def write_synthetic(path: Path, rows: int, attributes: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, rows)
    X = rng.normal(size=(rows, attributes)) + y[:, None] * np.linspace(0.1, 1.0, attributes)
    with open(path, "w") as fh:
        fh.write("@relation synthetic\n")
        fh.writelines(f"@attribute x{j} numeric\n" for j in range(attributes))
        fh.write("@attribute class {a,b}\n@data\n")
        for row, c in zip(X, y):
            fh.write(",".join(repr(float(v)) for v in row) + ("," + "ab"[c]) + "\n")


def halves(path: Path):
    """The training and test halves of an ARFF file, as the runner gives kernel_nb."""
    from bayesbench.data import load_dataset
    from bayesbench.data.encode import encode

    ds = load_dataset(path)
    n_train = int(np.floor(ds.n_rows / 2 + 0.5))
    train, test = ds.take(np.arange(n_train)), ds.take(np.arange(n_train, ds.n_rows))
    return (encode(train, "frame"), train.y, encode(test, "frame"), test.y, ds.n_classes,
            ds.n_attributes)


def run_ours(parts):
    from bayesbench.models.learners.kernel_nb import KernelNaiveBayes

    X_train, y_train, X_test, _, n_classes, _ = parts
    t0, c0 = time.perf_counter(), time.process_time()
    model = KernelNaiveBayes().fit(X_train, y_train, n_classes=n_classes)
    proba = model.predict_proba(X_test)
    return time.perf_counter() - t0, time.process_time() - c0, proba


def run_weka(workdir: Path, arff: Path, passes: int, heap: str):
    out = workdir / "dist.txt"
    cmd = ["java", f"-Xmx{heap}", "-cp", f"{WEKA_JAR}{os.pathsep}{workdir}", "HalfTimer",
           str(arff), str(passes), str(out), "weka.classifiers.bayes.NaiveBayes", "-K"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"Weka harness failed: {proc.stderr.strip()[-300:]}")
    _, fit, predict, cpu = proc.stdout.strip().splitlines()[-1].split()
    return float(fit) + float(predict), float(cpu), np.loadtxt(out, ndmin=2)


def compile_harness(workdir: Path) -> bool:
    if shutil.which("javac") is None or shutil.which("java") is None or not WEKA_JAR.exists():
        return False
    (workdir / "HalfTimer.java").write_text(HALF_TIMER)
    proc = subprocess.run(["javac", "-nowarn", "-cp", str(WEKA_JAR), "-d", str(workdir),
                           str(workdir / "HalfTimer.java")], capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"javac failed: {proc.stderr.strip()}", file=sys.stderr)
    return proc.returncode == 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--attributes", type=int, default=20)
    parser.add_argument("--datasets", nargs="*", default=DATASETS,
                        help="UCI files of datasets/ (none: the synthetic set only)")
    parser.add_argument("--no-synthetic", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--weka-passes", type=int, default=2)
    parser.add_argument("--synthetic-passes", type=int, default=1)
    parser.add_argument("--java-heap", default="4g")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)

    from bayesbench.report.tables import render

    rows = []
    with tempfile.TemporaryDirectory(prefix="bench_continuous_") as tmp:
        workdir = Path(tmp)
        weka = compile_harness(workdir)
        sets = [] if args.no_synthetic else [("synthetic", None)]
        sets += [(name, ROOT / "datasets" / f"{name}.arff") for name in args.datasets]
        for name, path in sets:
            passes = args.weka_passes
            if path is None:
                path, passes = workdir / "synthetic.arff", args.synthetic_passes
                write_synthetic(path, args.rows, args.attributes, args.seed)
            parts = halves(path)
            X_train, y_train, X_test, y_test, k, m = parts
            run_ours((X_train[:20], y_train[:20], X_test[:20], y_test[:20], k, m))  # warm-up
            times: dict[str, list] = {"ours": [], "weka": []}
            for r in range(args.repeats):
                print(f"{name}: repeat {r + 1} of {args.repeats} ...", file=sys.stderr)
                times["ours"].append(run_ours(parts))
                if weka:
                    times["weka"].append(run_weka(workdir, path, passes, args.java_heap))
            rows += _rows(name, parts, times)
    headers = ["data set", "method", "s", "x bayesbench", "CPU s", "CPU x bayesbench",
               "accuracy", "max |dp|", "within 0.0015"]
    print(render(rows, headers, "markdown" if args.markdown else "text", floatfmt=".4g",
                 caption=f"kernel naive Bayes fit + predict, first half / second half, median "
                         f"of {args.repeats}; {os.cpu_count()} cores"))
    if not weka:
        print("(Weka's timing needs java, javac and /usr/share/java/weka.jar)")


def _rows(name, parts, times):
    X_train, _, X_test, y_test, _, m = parts
    label = f"{name} ({len(X_train) + len(X_test)} x {m})"
    ours_s = float(np.median([t[0] for t in times["ours"]]))
    ours_cpu = float(np.median([t[1] for t in times["ours"]]))
    proba = times["ours"][-1][2]
    out = [[label, "bayesbench kernel_nb", ours_s, 1.0, ours_cpu, 1.0,
            float(np.mean(proba.argmax(axis=1) == y_test)), None, None]]
    if times["weka"]:
        s = float(np.median([t[0] for t in times["weka"]]))
        cpu = float(np.median([t[1] for t in times["weka"]]))
        dist = times["weka"][-1][2]
        gap = np.abs(proba - dist).max(axis=1)
        out.append([label, "weka NaiveBayes -K (in JVM)", s, s / ours_s, cpu, cpu / ours_cpu,
                    float(np.mean(dist.argmax(axis=1) == y_test)), float(gap.max()),
                    float(np.mean(gap <= 0.0015))])
    return out


if __name__ == "__main__":
    main()
