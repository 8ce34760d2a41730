"""Fuzz: malformed configs, data files and score tables through the command line.

Every case must be refused the way ``--help`` promises: exit status 1 or 2, one line on
standard error (a config with several problems: one line per problem, each naming the
config), no traceback, and no result directory created. The corpus holds the cases of
issue 15 and of its predecessors, and inputs generated with hypothesis (each generated
input is invalid by construction: one wrong-typed, out-of-range or unknown value in an
otherwise valid config, one broken line in an otherwise valid data file or score table).

Most cases run in this process through click's CliRunner (fast); the memory bombs and a
sample of the others run as subprocesses under ``resource.setrlimit(RLIMIT_AS)``, so that
a regression shows as a refusal that fails the test, not as a machine out of memory.
"""
from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bayesbench.cli import main

# Every case checks itself; TALLY counts the cases this process checked, so that a generated
# test can see that hypothesis ran every example it was asked for. Nothing is tallied across
# tests: pytest-xdist may run a module's tests on several workers, in any order.

ROOT = Path(__file__).resolve().parents[1]
IRIS = ROOT / "datasets" / "iris.arff"
#: Address space allowed to a subprocess case: importing numpy, scipy and pandas takes about
#: 600 MB of it; a table of 30,000 x 30,000 x 2 cells would take 14 GB.
MEMORY_LIMIT = 1 << 30
TALLY = Counter()
FUZZ = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@pytest.fixture(autouse=True, scope="module")
def _elsewhere(tmp_path_factory):
    """Run in an empty directory, so that a default ``results/`` would be seen."""
    previous = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("fuzz-cwd"))
    yield
    os.chdir(previous)


def every_example(test):
    """``test`` (a hypothesis test), and then: it checked one refusal per example it was asked
    for, each clean (a property that ran fewer examples would pass having tried less)."""
    def run():
        before = Counter(TALLY)
        test()
        ran = TALLY - before
        assert ran["tried"] >= run.cases, (ran, run.cases)
        assert ran["clean"] == ran["tried"], ran

    run.__name__, run.__doc__ = test.__name__, test.__doc__
    run.cases = test._hypothesis_internal_use_settings.max_examples
    return run


def refused(args, where: Path, *, config: Path | None = None, code=(1, 2)):
    """Run ``bayesbench ARGS`` in this process and check the refusal; return its lines."""
    res = CliRunner().invoke(main, [str(a) for a in args])
    return check(res.exit_code, res.stderr, res.stdout, where, config=config, code=code,
                 exception=res.exception)


def check(status, stderr, stdout, where: Path, *, config=None, code=(1, 2), exception=None):
    TALLY["tried"] += 1
    assert status in code, (status, stderr[-500:], stdout[-300:])
    assert exception is None or isinstance(exception, SystemExit), repr(exception)
    assert "Traceback" not in stderr + stdout
    lines = stderr.strip().splitlines()
    assert lines and lines[0].startswith("bayesbench: error: "), stderr[-500:]
    if config is None:
        assert len(lines) == 1, stderr[-1000:]
    else:  # one line per problem of the config, each naming it
        assert all(line.startswith(f"{config}: ") for line in lines[1:]), stderr[-1000:]
        assert lines[0].startswith(f"bayesbench: error: {config}: "), lines[0][:300]
    assert max(map(len, lines)) <= 1000, "a message quotes more than an excerpt"
    assert not (where / "out").exists() and not Path("results").exists()
    TALLY["clean"] += 1
    return lines


def refused_in_subprocess(args, where: Path, *, config=None, code=(1, 2), timeout=60):
    """As :func:`refused`, in a process whose address space is limited to MEMORY_LIMIT."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    proc = subprocess.run([sys.executable, "-m", "bayesbench.cli", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, preexec_fn=limit,
                          cwd=where)
    assert "MemoryError" not in proc.stderr
    return check(proc.returncode, proc.stderr, proc.stdout, where, config=config, code=code)


def write_config(where: Path, raw, name="exp.yaml") -> Path:
    path = where / name
    path.write_text(raw if isinstance(raw, str) else yaml.safe_dump(raw, sort_keys=False))
    return path


def base_config(where: Path, **over) -> dict:
    raw = {"name": "fuzz", "datasets": [str(IRIS)], "cv": {"folds": 2},
           "classifiers": ["nb", {"name": "kdb", "params": {"k": 1}}],
           "output": str(where / "out")}
    raw.update(over)
    return raw


# ------------------------------------------------------------------ configs, by hand

NINE_ALIASES = "\n".join(["x0: &x0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
                         + [f"x{i}: &x{i} [{', '.join([f'*x{i - 1}'] * 9)}]" for i in range(1, 9)])

CONFIG_TEXTS = {
    "billion-laughs": NINE_ALIASES + "\nname: *x8\ndatasets: [iris]\nclassifiers: [nb]\n",
    "laughs-in-params": NINE_ALIASES + "\nname: x\ndatasets: [iris]\nclassifiers:\n"
                                       "  - {name: nb, params: {alpha: *x8}}\n",
    "recursive-alias": "name: &a [x, *a]\ndatasets: [iris]\nclassifiers: [nb]\n",
    "deep-nesting": "name: x\ndatasets: " + "[" * 3000 + "]" * 3000 + "\n",
    "huge-integer": "name: x\nseed: " + "7" * 5000 + "\ndatasets: [iris]\nclassifiers: [nb]\n",
    "empty": "",
    "a-list": "- name\n- x\n",
    "a-scalar": "just words\n",
    "yaml-syntax": "name: x\ndatasets: [iris\nclassifiers: [nb]\n",
    "tab-indent": "name: x\ndatasets:\n\t- iris\n",
    "key-twice": "name: x\ndatasets: [iris]\nclassifiers: [nb]\nclassifiers: [tan]\n",
    "unknown-tag": "name: !!python/object:os.system x\ndatasets: [iris]\nclassifiers: [nb]\n",
    "long-name": "name: " + "n" * 500_000 + "\ndatasets: [iris]\nclassifiers: [nb]\n",
    "long-dataset-name": "name: x\ndatasets: [" + "d" * 300_000 + "]\nclassifiers: [nb]\n",
    "long-unknown-key": "name: x\ndatasets: [iris]\nclassifiers: [nb]\n" + "k" * 1000 + ": 1\n",
    "many-values": "name: x\ndatasets: [iris]\nclassifiers: [nb]\nmetrics: ["
                   + ", ".join(["accuracy"] * 120_000) + "]\n",
}

CONFIG_RAWS = {
    "alpha-negative": {"classifiers": [{"name": "nb", "params": {"alpha": -1}}]},
    "k-two": {"classifiers": [{"name": "kdb", "params": {"k": "two"}}]},
    "bad-grid-setting": {"classifiers": [{"name": "nb", "params": {"alpha": [1, 2, -3]}}]},
    "grid-10^8": {"classifiers": [{"name": "asb", "params": {
        "alpha": [1.0 + i for i in range(40)], "inner_folds": list(range(2, 42)),
        "epsilon": [i / 100 for i in range(40)], "significance": [i / 100 for i in range(1, 41)],
        "random_state": list(range(40))}}]},
    "empty-grid-list": {"classifiers": [{"name": "nb", "params": {"alpha": []}}]},
    "unknown-classifier": {"classifiers": ["nbb"]},
    "unknown-parameter": {"classifiers": [{"name": "nb", "params": {"beta": 1}}]},
    "metrics-empty": {"metrics": []},
    "format-empty": {"format": []},
    "unknown-metric": {"metrics": ["acuracy"]},
    "scheduler-malformed": {"scheduler": "nowhere"},
    "scheduler-misspelt": {"scheduler": "locl"},
    "consensus-threshold-2": {"consensus_threshold": 2},
    "consensus-threshold-nan": {"consensus_threshold": float("nan")},
    "figure-format-without-svg": {"figure_format": ["png", "pdf"]},
    "figure-format-unknown": {"figure_format": ["svg", "jpg"]},
    "repeats-10^9": {"cv": {"repeats": 10 ** 9}},
    "folds-10^9": {"cv": {"folds": 10 ** 9}},
    "folds-one": {"cv": {"folds": 1}},
    "holdout-and-folds": {"cv": {"folds": 3, "holdout": 0.3}},
    "max-table-cells-zero": {"max_table_cells": 0},
    "jobs-zero": {"jobs": 0},
    "bins-one": {"preprocess": {"bins": 1}},
    "unknown-discretizer": {"preprocess": {"discretize": "median"}},
    "noise-fraction-2": {"preprocess": {"noise": {"fraction": 2}}},
    "baseline-unknown": {"compare": {"baseline": "tan"}},
    "alpha-level-1": {"compare": {"alpha": 1.0}},
    "duplicate-labels": {"classifiers": ["nb", "nb"]},
    "dataset-missing": {"datasets": ["no-such-data-set"]},
    "dataset-dir": {"datasets": [str(ROOT / "datasets")]},
    "dataset-device": {"datasets": ["/dev/zero"]},
    "datasets-empty": {"datasets": []},
    "classifiers-empty": {"classifiers": []},
    "name-with-slash": {"name": "a/b"},
    "attributes-unknown": {"datasets": [{"path": str(IRIS), "attributes": ["petal"]}]},
    "class-unknown": {"datasets": [{"path": str(IRIS), "class": "colour"}]},
    "per-class-metric-unknown-class": {"metrics": ["f1[Iris-purple]"]},
}


@pytest.mark.parametrize("case", sorted(CONFIG_TEXTS))
def test_a_malformed_config_text_is_refused(case, tmp_path):
    config = write_config(tmp_path, CONFIG_TEXTS[case])
    refused(["run", config], tmp_path, config=config, code=(2,))


@pytest.mark.parametrize("case", sorted(CONFIG_RAWS))
def test_an_invalid_config_is_refused_before_anything_is_written(case, tmp_path):
    config = write_config(tmp_path, base_config(tmp_path, **CONFIG_RAWS[case]))
    refused(["run", config, "-q", "--jobs", "1"], tmp_path, config=config, code=(2,))


@pytest.mark.parametrize("case", ["dev-zero", "fifo", "directory", "over-a-megabyte",
                                  "not-utf8", "utf16"])
def test_a_config_that_is_no_yaml_text_file_is_refused_unread(case, tmp_path):
    if case == "dev-zero":
        config = Path("/dev/zero")
    elif case == "fifo":
        config = tmp_path / "exp.yaml"
        os.mkfifo(config)
    elif case == "directory":
        config = tmp_path / "exp.yaml"
        config.mkdir()
    else:
        config = tmp_path / "exp.yaml"
        body = "name: x\ndatasets: [iris]\nclassifiers: [nb]\n"
        config.write_bytes({"over-a-megabyte": (body + "#" * (1 << 20)).encode(),
                            "not-utf8": b"name: caf\xe9\n" + body.encode(),
                            "utf16": body.encode("utf-16")}[case])
    refused(["run", config], tmp_path, code=(2,), config=None if case == "directory" else config)


# ------------------------------------------------------------------ memory bombs, limited

@pytest.mark.parametrize("case", ["billion-laughs", "laughs-in-params", "grid-10^8",
                                  "repeats-10^9", "dev-zero"])
def test_a_memory_bomb_is_refused_within_the_memory_limit(case, tmp_path):
    if case == "dev-zero":
        refused_in_subprocess(["run", "/dev/zero"], tmp_path, code=(2,))
        return
    if case in CONFIG_TEXTS:
        config = write_config(tmp_path, CONFIG_TEXTS[case])
    else:
        config = write_config(tmp_path, base_config(tmp_path, **CONFIG_RAWS[case]))
    refused_in_subprocess(["run", config, "-q"], tmp_path, config=config, code=(2,))


def test_id_like_attributes_fail_their_tasks_within_the_memory_limit(tmp_path):
    # Not a refusal: the run goes on and reports the failed tasks; before, each task of
    # tan, kdb, aode and ddr_tan asked for 13 GiB (ande's triples, more).
    n = 30_000
    rows = "".join(f"v{i},w{(i * 7919) % n},{'ab'[i % 2]}\n" for i in range(n))
    (tmp_path / "ids.csv").write_text("id1,id2,class\n" + rows)
    config = write_config(tmp_path, {"name": "ids", "datasets": [str(tmp_path / "ids.csv")],
                                     "cv": {"folds": 2},
                                     "classifiers": ["tan", "kdb", "aode", "ande"],
                                     "output": str(tmp_path / "out")})

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    proc = subprocess.run([sys.executable, "-m", "bayesbench.cli", "run", str(config), "-q",
                           "--jobs", "1", "--format", "csv"], capture_output=True, text=True,
                          timeout=300, preexec_fn=limit)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stderr.strip() == f"8 task(s) failed; see {tmp_path / 'out'}/summary/failed_tasks.*"
    errors = (tmp_path / "out" / "summary" / "failed_tasks.csv").read_text()
    assert errors.count("TableTooLarge: the table of attribute(s) 'id1', 'id2'") == 8


# ------------------------------------------------------------------ data files, by hand

HEADER = ("@relation r\n@attribute a numeric\n@attribute b {x,y}\n@attribute class {p,q}\n"
          "@data\n")
ROWS = "1,x,p\n2,y,q\n3,x,p\n4,y,q\n5,x,p\n6,y,q\n"
DATA_FILES = {
    "empty.arff": b"",
    "blank-lines.arff": b"  \n\n",
    "no-header.arff": ROWS.encode(),
    "no-data-section.arff": HEADER.replace("@data\n", "").encode(),
    "no-rows.arff": HEADER.encode(),
    "too-many-values.arff": (HEADER + ROWS + "7,x,p,9\n").encode(),
    "too-few-values.arff": (HEADER + ROWS + "7,x\n").encode(),
    "undeclared-value.arff": (HEADER + ROWS + "7,z,p\n").encode(),
    "not-a-number.arff": (HEADER + ROWS + "abc,x,p\n").encode(),
    "duplicate-attribute.arff": (HEADER.replace("@attribute b", "@attribute a") + ROWS).encode(),
    "unknown-type.arff": (HEADER.replace("numeric", "colour") + ROWS).encode(),
    "no-relation.arff": (HEADER.replace("@relation r\n", "") + ROWS).encode(),
    "open-quote.arff": (HEADER + ROWS + "7,'x,p\n").encode(),
    "binary.arff": bytes(range(256)) * 4,
    "broken-sparse-row.arff": (HEADER + "{0 1, 2 p\n").encode(),
    "every-class-missing.arff": (HEADER + "1,x,?\n2,y,?\n").encode(),
    "numeric-class.arff": b"@relation r\n@attribute a numeric\n@attribute c numeric\n@data\n"
                          b"1,2\n3,4\n",
    "one-class.arff": (HEADER + "1,x,p\n2,y,p\n3,x,p\n").encode(),
    "empty.csv": b"",
    "header-only.csv": b"a,b,class\n",
    "ragged.csv": b"a,b,class\n1,x,p\n2,y\n3,x,p,4\n",
    "duplicate-header.csv": b"a,a,class\n1,x,p\n2,y,q\n",
    "unnamed-column.csv": b"a,,class\n1,x,p\n2,y,q\n",
    "binary.csv": bytes(range(256)) * 4,
    "index-not-a-number.libsvm": b"1 a:b\n",
    "negative-index.libsvm": b"1 -1:1\n2 1:1\n",
    "empty.libsvm": b"",
    "binary.libsvm": bytes(range(256)) * 4,
    "unknown-format.xyz": b"1,2\n",
}


@pytest.mark.parametrize("command", ["run", "discretize"])
@pytest.mark.parametrize("name", sorted(DATA_FILES))
def test_a_malformed_data_file_is_refused(name, command, tmp_path):
    data = tmp_path / name
    data.write_bytes(DATA_FILES[name])
    if command == "discretize":
        refused(["discretize", data, "-o", tmp_path / "out"], tmp_path)
        return
    config = write_config(tmp_path, base_config(tmp_path, datasets=[str(data)]))
    refused(["run", config, "-q", "--jobs", "1"], tmp_path, config=config, code=(2,))


# ------------------------------------------------------------------ score tables, by hand

SCORE_TABLES = {
    "empty": "",
    "header-only": "dataset,a,b\n",
    "one-classifier": "dataset,a\nd1,0.9\nd2,0.8\nd3,0.7\n",
    "one-data-set": "dataset,a,b\nd1,0.9,0.8\n",
    "text-cell": "dataset,a,b\nd1,x,0.8\nd2,0.7,y\nd3,0.6,0.5\n",
    "infinite-cell": "dataset,a,b\nd1,inf,0.8\nd2,0.7,0.6\nd3,0.6,0.5\n",
    "repeated-classifier": "dataset,a,a\nd1,0.9,0.8\nd2,0.7,0.6\nd3,0.6,0.5\n",
    "repeated-data-set": "dataset,a,b\nd1,0.9,0.8\nd1,0.7,0.6\nd3,0.6,0.5\n",
    "row-too-long": "dataset,a,b\nd1,0.9\nd2,0.7,0.6,0.1\nd3,0.6,0.5\n",
    "binary": "".join(chr(i) for i in range(1, 256)) * 3,
    "nul-bytes": "\x00\x01\x02,\x00\n",
    "long-table-without-classifier": "dataset,fold,value\nd1,0,0.9\nd1,1,0.8\n",
    "summary-unpaired": "dataset,a mean,b std\nd1,0.9,0.1\nd2,0.8,0.1\n",
}


@pytest.mark.parametrize("case", sorted(SCORE_TABLES))
def test_a_malformed_score_table_is_refused(case, tmp_path):
    table = tmp_path / "scores.csv"
    table.write_text(SCORE_TABLES[case], encoding="utf-8", errors="surrogatepass")
    refused(["compare", table, "-o", tmp_path / "out"], tmp_path)


def test_compare_on_a_directory_that_is_no_run_is_refused(tmp_path):
    (tmp_path / "empty").mkdir()
    refused(["compare", tmp_path / "empty"], tmp_path)
    run_dir = tmp_path / "fake"
    run_dir.mkdir()
    os.mkfifo(run_dir / "records.jsonl")  # would be read without end
    refused(["compare", run_dir], tmp_path)


# ------------------------------------------------------------------ generated configs

# A valid config's keys, each with what a wrong value looks like for it.
INTEGER_KEYS = {("seed",): 0, ("cv", "folds"): 2, ("cv", "repeats"): 1, ("jobs",): 1,
                ("max_table_cells",): 1, ("preprocess", "bins"): 2}
CHOICE_KEYS = {("preprocess", "discretize"), ("preprocess", "impute"), ("preprocess", "scope"),
               ("compare", "test"), ("compare", "metric"), ("metrics", 0), ("format", 0),
               ("classifiers", 0, "name")}
SECTIONS = {(): ("name", "seed", "datasets", "preprocess", "cv", "classifiers", "metrics",
                 "output", "format", "compare", "jobs"),
            ("preprocess",): ("impute", "discretize", "bins", "scope", "noise"),
            ("cv",): ("folds", "repeats", "stratified"),
            ("compare",): ("metric", "baseline", "test", "alpha"),
            ("classifiers", 0): ("name", "params", "label")}

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10 ** 30, 10 ** 30),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=40))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)
words = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1,
                max_size=30)


def full_config(where: Path) -> dict:
    return base_config(where, seed=1, preprocess={"discretize": "mdl", "impute": "none",
                                                  "bins": 10, "scope": "fold"},
                       cv={"folds": 2, "repeats": 1, "stratified": True},
                       classifiers=[{"name": "nb", "params": {"alpha": 1.0}, "label": "nb"}],
                       metrics=["accuracy"], format=["csv"], jobs=1, max_table_cells=10 ** 6,
                       compare={"metric": "accuracy", "test": "corrected-t", "alpha": 0.05})


def put(raw: dict, path: tuple, value) -> None:
    node = raw
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value


@st.composite
def broken_configs(draw):
    """``(mutation, path, value)``: one change that makes a valid config invalid."""
    kind = draw(st.sampled_from(["wrong-type", "out-of-range", "unknown-key", "unknown-choice"]))
    if kind == "wrong-type":
        path = draw(st.sampled_from(sorted(INTEGER_KEYS) + [("name",), ("cv",), ("datasets",),
                                                             ("classifiers",), ("compare",)]))
        value = draw(values.filter(lambda v: not _fits(path, v)))
    elif kind == "out-of-range":
        path = draw(st.sampled_from(sorted(INTEGER_KEYS)))
        low = INTEGER_KEYS[path]
        value = draw(st.integers(max_value=low - 1))
        if path in (("cv", "folds"), ("cv", "repeats")):  # more folds than rows, repeats > 1000
            value = draw(st.just(value) | st.integers(min_value=10 ** 12))
    elif kind == "unknown-key":
        section = draw(st.sampled_from(sorted(SECTIONS)))
        key = draw(words.filter(lambda w: w not in SECTIONS[section] and w != "<<"))
        path, value = section + (key,), draw(values)
    else:
        path = draw(st.sampled_from(sorted(CHOICE_KEYS, key=str)))
        value = draw(words.filter(lambda w: not _known_choice(w)))
    return kind, path, value


def _fits(path, value) -> bool:
    """Whether ``value`` has the kind the key at ``path`` takes (then it is no mutation)."""
    if path in INTEGER_KEYS:
        optional = path in (("jobs",), ("max_table_cells",))  # null: the default
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            optional and value is None)
    if path == ("name",):
        return isinstance(value, str) and bool(re.match(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$", value))
    if path == ("compare",):
        return isinstance(value, dict) or value is None  # null: no comparison settings
    return isinstance(value, dict if path == ("cv",) else list)


def _known_choice(word: str) -> bool:
    from bayesbench.evaluation.metrics import is_metric
    from bayesbench.models.registry import list_classifiers
    from bayesbench.report.tables import FORMATS

    return is_metric(word) or word in FORMATS or word in list_classifiers() or word in {
        "mdl", "fd", "width", "frequency", "none", "mean_mode", "weighted_random", "drop",
        "fold", "global"} or word.lower() in {"corrected-t", "paired-t", "unpaired-t",
                                               "wilcoxon"}


@every_example
@FUZZ
@given(broken_configs())
def test_a_generated_invalid_config_is_refused(mutation):
    kind, path, value = mutation
    with tempfile.TemporaryDirectory() as where:
        where = Path(where)
        raw = full_config(where)
        put(raw, path, value)
        config = write_config(where, raw)
        refused(["run", config, "-q", "--jobs", "1"], where, config=config, code=(2,))


@every_example
@settings(FUZZ, max_examples=40)
@given(st.one_of(st.binary(max_size=300), st.text(max_size=300).map(str.encode)))
def test_generated_bytes_as_a_config_are_refused(blob):
    with tempfile.TemporaryDirectory() as where:
        where = Path(where)
        config = where / "exp.yaml"
        config.write_bytes(blob)
        refused(["run", config, "-q"], where, config=config, code=(2,))


# ------------------------------------------------------------------ generated data files

NUMBERS = ("1.5", "2", "3.25", "4", "5.5", "6", "7", "8.75")
letters = st.text(st.sampled_from("bcdeghjkmortuvwz"), min_size=1, max_size=8)


@st.composite
def broken_arff(draw):
    """A valid ARFF file of 8 rows with one defect a reader must refuse."""
    rows = [[NUMBERS[i], "xy"[i % 2], "pq"[(i // 2) % 2]] for i in range(8)]
    header = HEADER.splitlines()
    defect = draw(st.sampled_from(["not-a-number", "undeclared", "extra-value",
                                   "missing-value", "no-data", "duplicate-attribute",
                                   "every-class-missing"]))
    row = draw(st.integers(0, 7))
    if defect == "not-a-number":
        rows[row][0] = draw(letters)
    elif defect == "undeclared":
        rows[row][draw(st.sampled_from([1, 2]))] = draw(letters.filter(lambda w: len(w) > 1))
    elif defect == "extra-value":
        rows[row].append(draw(st.sampled_from(NUMBERS)))
    elif defect == "missing-value":
        del rows[row][draw(st.integers(0, 2))]
    elif defect == "no-data":
        header = header[:-1]
    elif defect == "duplicate-attribute":
        header.insert(2, header[draw(st.integers(1, 3))])
    else:
        for r in rows:
            r[2] = "?"
    return defect, "\n".join(header + [",".join(r) for r in rows]) + "\n"


@st.composite
def broken_csv(draw):
    rows = [[NUMBERS[i], "xy"[i % 2], "pq"[(i // 2) % 2]] for i in range(8)]
    header = ["a", "b", "class"]
    defect = draw(st.sampled_from(["extra-field", "missing-field", "duplicate-name",
                                   "unnamed-column", "header-only"]))
    row = draw(st.integers(0, 7))
    if defect == "extra-field":
        rows[row].append(draw(st.sampled_from(NUMBERS)))
    elif defect == "missing-field":
        del rows[row][draw(st.integers(0, 2))]
    elif defect == "duplicate-name":
        header[1] = "a"
    elif defect == "unnamed-column":
        header[draw(st.integers(0, 1))] = ""
    else:
        rows = []
    return defect, "\n".join(",".join(r) for r in [header] + rows) + "\n"


@every_example
@FUZZ
@given(st.one_of(broken_arff().map(lambda d: ("arff",) + d),
                 broken_csv().map(lambda d: ("csv",) + d)), st.sampled_from(["run", "discretize"]))
def test_a_generated_broken_data_file_is_refused(case, command):
    suffix, defect, text = case
    with tempfile.TemporaryDirectory() as where:
        where = Path(where)
        data = where / f"data.{suffix}"
        data.write_text(text)
        if command == "discretize":
            refused(["discretize", data, "-o", where / "out"], where)
        else:
            config = write_config(where, base_config(where, datasets=[str(data)]))
            refused(["run", config, "-q", "--jobs", "1"], where, config=config, code=(2,))


# ------------------------------------------------------------------ generated score tables

@st.composite
def broken_scores(draw):
    """A wide table of scores (3 data sets x 3 classifiers) with one defect."""
    header = ["dataset", "a", "b", "c"]
    rows = [[f"d{i}", "0.9", "0.8", "0.7"] for i in range(3)]
    defect = draw(st.sampled_from(["text-cell", "long-row", "repeated-classifier",
                                   "repeated-data-set", "one-column", "infinite"]))
    i, j = draw(st.integers(0, 2)), draw(st.integers(1, 3))
    if defect == "text-cell":
        rows[i][j] = draw(letters.filter(lambda w: w.lower() not in ("nan", "inf", "na")))
    elif defect == "long-row":
        rows[i] += [draw(st.sampled_from(NUMBERS))] * draw(st.integers(1, 3))
    elif defect == "repeated-classifier":
        header[j] = header[1 + j % 3]
    elif defect == "repeated-data-set":
        rows[i][0] = rows[(i + 1) % 3][0]
    elif defect == "one-column":
        header, rows = header[:2], [r[:2] for r in rows]
    else:
        rows[i][j] = draw(st.sampled_from(["inf", "-inf", "Infinity"]))
    return defect, "\n".join(",".join(r) for r in [header] + rows) + "\n"


@every_example
@FUZZ
@given(broken_scores())
def test_a_generated_broken_score_table_is_refused(case):
    defect, text = case
    with tempfile.TemporaryDirectory() as where:
        where = Path(where)
        table = where / "scores.csv"
        table.write_text(text)
        refused(["compare", table, "-o", where / "out"], where)


# ------------------------------------------------------------------ a sample as subprocesses

SAMPLE = ["alpha-negative", "grid-10^8", "metrics-empty", "dataset-device", "repeats-10^9"]


@pytest.mark.parametrize("case", SAMPLE)
def test_a_sample_is_refused_alike_as_a_separate_process(case, tmp_path):
    config = write_config(tmp_path, base_config(tmp_path, **CONFIG_RAWS[case]))
    refused_in_subprocess(["run", config, "-q"], tmp_path, config=config, code=(2,))


@pytest.mark.parametrize("name", ["ragged.csv", "undeclared-value.arff", "binary.libsvm"])
def test_a_sample_of_data_files_is_refused_alike_as_a_separate_process(name, tmp_path):
    data = tmp_path / name
    data.write_bytes(DATA_FILES[name])
    refused_in_subprocess(["discretize", data], tmp_path)


def test_the_corpus_holds_at_least_300_cases(request):
    """When the whole module is selected: its cases, counted from what pytest collected (a
    generated test as the examples :func:`every_example` makes it run, any other as one),
    are at least 300. Counted, not tallied as they run, so that xdist may split the module."""
    here = [item for item in request.session.items if item.path == Path(__file__)]
    tests = {name for name, value in globals().items()
             if name.startswith("test_") and callable(value)}
    if {item.originalname for item in here} != tests:
        pytest.skip("only part of the module is selected")
    no_refusal = {test_id_like_attributes_fail_their_tasks_within_the_memory_limit,
                  test_the_corpus_holds_at_least_300_cases}
    cases = sum(getattr(item.function, "cases", 1) for item in here
                if item.function not in no_refusal)
    print(f"\nfuzz: {cases} cases")
    assert cases >= 300
