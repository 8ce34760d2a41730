"""The ``bayesbench`` command line: thin click commands that parse, call the library and print.

Every :class:`~bayesbench.errors.BayesbenchError` becomes one line on standard
error and a non-zero exit status; no command computes anything itself.
"""
from __future__ import annotations

import sys

import click

from . import __version__
from .errors import BayesbenchError


class _Group(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except BayesbenchError as exc:
            click.echo(f"bayesbench: error: {exc}", err=True)
            ctx.exit(exc.exit_code)
        except OSError as exc:
            # A file that cannot be written or read (no such directory, no permission, disk
            # full) is the user's environment, not a bug: one line naming the file.
            where = f"{exc.filename}: " if exc.filename is not None else ""
            click.echo(f"bayesbench: error: {where}{exc.strerror or exc}", err=True)
            ctx.exit(1)
        except KeyboardInterrupt:
            click.echo("\nbayesbench: interrupted", err=True)
            ctx.exit(130)


def _output_file(path, option: str, suffixes=None) -> None:
    """Refuse an output file before any work: its directory must exist, its suffix be known."""
    if path is None:
        return
    from pathlib import Path

    path = Path(path)
    if suffixes and path.suffix.lower() not in suffixes:
        raise BayesbenchError(f"{option} {path}: expected a file name ending in "
                              f"{', '.join(suffixes)}")
    if path.is_dir():
        raise BayesbenchError(f"{option} {path}: is a directory; expected a file name")
    parent = path.parent
    if not parent.is_dir():
        raise BayesbenchError(f"{option} {path}: the directory {parent} does not exist")


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="bayesbench")
def main():
    """Run, compare and report experiments with Bayesian network classifiers.

    `run` cross-validates the classifiers of a YAML config on its data sets and
    writes records and summary tables to a result directory; `compare` tests
    classifiers against each other over result directories or a CSV of
    scores; `discretize` prints the cut points of a data set. Each command
    has its own page: bayesbench COMMAND --help. README.md documents the
    config keys, the result directory and every statistic.

    \b
    Examples:
      bayesbench run configs/quickstart.yaml
      bayesbench compare results/quickstart
      bayesbench discretize iris --format json

    \b
    Environment:
      BAYESBENCH_DATA  directories (':'-separated) searched for data sets
                       given by name, after the config's data_dirs

    \b
    Exit status:
      0    success, also when some tasks failed (see summary/errors.*)
      1    an error, reported in one line on standard error
      2    an invalid config or command line
      130  interrupted (Ctrl-C); run the same command again to resume
    """


@main.command()
@click.argument("config")
@click.option("-o", "--output", metavar="DIR",
              help="Result directory (config key 'output'; default results/<name>).")
@click.option("-j", "--jobs", type=click.IntRange(min=1),
              help="Worker processes (config key 'jobs'; default: all cores; 1 = serial).")
@click.option("--scheduler", metavar="ADDRESS",
              help="Run on a Dask cluster, e.g. tcp://host:8786 (needs bayesbench[dask]).")
@click.option("--resume", is_flag=True,
              help="Continue a result directory even if its config differs; tasks that "
                   "still match are kept.")
@click.option("--force", is_flag=True,
              help="Never reuse the existing directory: write into <output>-2, -3, ...")
@click.option("-q", "--quiet", is_flag=True, help="No progress and no tables on the terminal.")
@click.option("--format", "formats", multiple=True, metavar="FORMAT",
              help="Summary table formats, repeatable or comma-separated: text, markdown, "
                   "csv, latex (config key 'format'; default all four).")
@click.option("--skip-missing", is_flag=True,
              help="Data sets given by name that are found nowhere are named, with the "
                   "directories searched, as a warning, and the others run (without it "
                   "they are a config error).")
@click.option("--repeats", type=click.IntRange(min=1), metavar="N",
              help="Override cv.repeats (k-fold and holdout), e.g. 1 for a smoke test; "
                   "a different experiment, so give it its own --output.")
@click.option("--datasets", "only", metavar="NAME[,NAME...]",
              help="Run only these data sets of the config (by their names in results).")
def run(config, output, jobs, scheduler, resume, force, quiet, formats, skip_missing, repeats,
        only):
    """Run the experiment described by the YAML file CONFIG.

    Every classifier is cross-validated on every data set; one record per
    (data set, repetition, fold, classifier) goes to OUTPUT/records.jsonl as it
    finishes, and summary tables to OUTPUT/summary/ at the end. Running the
    same command again skips finished tasks, also after a crash. Options
    override the config keys of the same meaning. The config is checked
    completely first: every mistake is listed with its key path, and nothing
    is written. A config with `arms:` runs one experiment per arm into
    OUTPUT/<arm>/ and compares the arms in OUTPUT/comparison.*.

    \b
    Examples:
      bayesbench run configs/quickstart.yaml
      bayesbench run exp.yaml --jobs 1 --format markdown
      bayesbench run exp.yaml --scheduler tcp://scheduler-host:8786
      bayesbench run exp.yaml --resume
      BAYESBENCH_DATA=../shared/datasets/uci \\
          bayesbench run configs/papers/zhang2005.yaml --skip-missing
      bayesbench run configs/papers/mihaljevic2013.yaml --skip-missing \\
          --repeats 1 --datasets car,wine -o /tmp/smoke
    """
    from pathlib import Path

    from .config import load_config, override
    from .errors import ConfigError, Interrupted
    from .evaluation.runner import run_config
    from .evaluation.summary import file_stem
    from .report.tables import FORMATS

    if resume and force:
        raise ConfigError([("--resume", "--resume and --force exclude each other")])
    if output is not None and Path(output).exists() and not Path(output).is_dir():
        raise ConfigError([("--output", f"{output} is a file; expected a result directory")])
    chosen = [f.strip() for item in formats for f in item.split(",") if f.strip()]
    unknown = [f for f in chosen if f not in FORMATS]
    if unknown:
        # A command-line mistake: exit status 2, as for the config's own 'format' key.
        raise ConfigError([("--format", f"unknown format(s) {', '.join(unknown)}; "
                                        f"expected {', '.join(FORMATS)}")])
    spec = override(load_config(config, skip_missing=skip_missing), repeats=repeats,
                    output=output, datasets=None if only is None else
                    [d.strip() for d in only.split(",") if d.strip()])
    for name, message in spec.missing:
        click.echo(f"bayesbench: warning: data set '{name}' skipped: {message}", err=True)
    try:
        results = run_config(spec, jobs=jobs, scheduler=scheduler, resume=resume, force=force,
                             formats=chosen or None, quiet=quiet, command=sys.argv)
    except KeyboardInterrupt:
        # Records are written as tasks finish, so the directory is a consistent partial run.
        where = "" if force else f" in {spec.run_dir}"
        raise Interrupted(f"interrupted; the finished tasks are kept{where}: run the same "
                          f"command again to resume") from None
    first = file_stem(spec.metrics[0])
    for result in results:
        if not quiet:
            # The table of the config's first metric, in the most readable format written.
            tables = [result.run_dir / "summary" / f"{first}.{ext}"
                      for ext in ("txt", "md", "csv", "tex")]
            table = next((t for t in tables if t.exists()), None)
            if table is not None:
                click.echo(table.read_text())
            click.echo(f"{result.run_dir}: {result.n_tasks} tasks ({result.n_skipped} already "
                       f"done, {result.n_run} run, {len(result.errors)} failed); tables in "
                       f"{result.run_dir / 'summary'}")
        if result.errors:
            click.echo(f"{len(result.errors)} task(s) failed; see "
                       f"{result.run_dir / 'summary'}/errors.*", err=True)
    if len(results) > 1 and not quiet:
        click.echo(f"arms compared in {results[0].run_dir.parent}/comparison.*")


@main.command(short_help="Print (and apply) the cut points of a data set's numeric attributes.")
@click.argument("data")
@click.option("--method", type=click.Choice(["mdl", "fd", "width", "frequency"]), default="mdl",
              show_default=True, help="How cut points are chosen.")
@click.option("--bins", type=click.IntRange(min=1), default=10, show_default=True,
              help="Number of bins for 'width' and 'frequency'.")
@click.option("--class", "class_attribute", metavar="NAME",
              help="Class attribute (default: the last one).")
@click.option("--delimiter", metavar="CHAR", help="CSV field separator (default ',').")
@click.option("-o", "--output", metavar="FILE",
              help="Also write the discretized data here as ARFF (Weka-style range labels).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True, help="How to print the cut points.")
def discretize(data, method, bins, class_attribute, delimiter, output, fmt):
    """Print the cut points that discretize the numeric attributes of DATA.

    DATA is an ARFF, CSV or libsvm file, or the name of a bundled data set
    (iris, vote, ...). The cut points are fitted on all of DATA: 'mdl' is
    Fayyad and Irani's supervised method exactly as Weka's Discretize filter
    computes it, 'fd' Freedman-Diaconis bins, 'width' and 'frequency' BINS
    equal-width or equal-frequency bins. A value v falls in the bin (a, b]
    with a < v <= b. Nominal attributes are left alone; a data set without
    numeric attributes is an error. With --format json the output is
    {"attribute": [cut, ...], ...} for the numeric attributes.

    \b
    Examples:
      bayesbench discretize iris --format json
      bayesbench discretize data.csv --method fd --class label
      bayesbench discretize glass.arff -o glass-mdl.arff
    """
    import json

    from .data import load_dataset, locate_dataset, write_arff
    from .errors import DataError
    from .preprocess.discretize import Discretizer, cut_point_rows
    from .report.tables import render

    _output_file(output, "-o")
    path = locate_dataset(data)
    ds = load_dataset(path, class_attribute, delimiter=delimiter)
    if not ds.attributes:
        raise DataError(f"no attribute besides the class '{ds.target.name}' (for a CSV file: "
                        f"is the --delimiter right?)", path=path)
    if all(a.is_nominal for a in ds.attributes):
        raise DataError(f"no numeric attribute to discretize (its {len(ds.attributes)} "
                        f"attributes are all nominal)", path=path)
    fitted = Discretizer(method=method, bins=bins).fit(ds)
    if output:
        write_arff(fitted.transform(ds), output)
        click.echo(f"wrote {output}", err=True)
    if fmt == "json":
        click.echo(json.dumps({k: v.tolist() for k, v in fitted.cuts_.items()}, indent=1))
    else:
        # floatfmt "" keeps a lone cut point as written (6 decimals at most, as in Weka)
        click.echo(render(cut_point_rows(fitted.cuts_), ["attribute", "bins", "cut points"],
                          floatfmt=""))


@main.command()
@click.argument("inputs", nargs=-1, required=True, metavar="RUN_DIR...")
@click.option("--metric", default=None, metavar="NAME",
              help="Score to compare: accuracy (default), error, precision_macro, recall_macro, "
                   "f1_macro, *_weighted, specificity_macro, log_loss, brier, auc_ovr, or a "
                   "per-class score such as 'f1[M]'. For a CSV it only names the scores.")
@click.option("--baseline", metavar="NAME", help="Classifier the others are tested against "
                                                  "(default: the first one).")
@click.option("--test", "test", default="corrected-t", show_default=True,
              type=click.Choice(["corrected-t", "paired-t", "unpaired-t", "wilcoxon"]),
              help="Test over the folds of each data set that sets the v / * marks.")
@click.option("--alpha", default=0.05, show_default=True, type=click.FloatRange(0, 1, min_open=True,
                                                                                 max_open=True),
              help="Significance level of every test.")
@click.option("--lower-is-better/--higher-is-better", "lower_is_better", default=None,
              help="Direction of the scores (default: lower for error, log_loss and brier, and "
                   "higher for everything else, CSV scores included).")
@click.option("--format", "fmt", default="text", show_default=True,
              type=click.Choice(["text", "markdown", "latex", "csv"]), help="Table format.")
@click.option("-o", "--output", metavar="FILE", help="Write the tables to this file.")
@click.option("--plot", metavar="FILE.png|FILE.svg|FILE.pdf",
              help="Also draw the critical-difference diagram (Demsar 2006, Fig. 1).")
def compare(inputs, metric, baseline, test, alpha, lower_is_better, fmt, output, plot):
    """Compare classifiers across runs with significance tests.

    RUN_DIR... are result directories written by `bayesbench run`, or
    directories holding several of them, or one CSV file of scores (first
    column the data set, one column per classifier, e.g. a published table).
    Classifiers are named by their labels; a label found in two runs is
    prefixed with the run's directory name.

    Printed: a data sets x classifiers table of mean +- std over folds, the
    best of each row marked, and `v` / `*` where a classifier is significantly
    better / worse than the baseline on that data set (--test over its folds;
    paired tests refuse runs made with different folds or seeds, the unpaired
    t-test does not); average ranks and wins/ties/losses; Friedman's
    chi-square (Demsar's formula, and scipy's tie-corrected value) and the
    Iman-Davenport F; Nemenyi and Bonferroni-Dunn critical differences; Holm,
    Bonferroni-Dunn, Wilcoxon signed-rank and sign tests against the baseline.
    A CSV has one score per cell, so only the tests over data sets apply.

    A classifier that failed (or has no score) on some fold of a data set
    gets an empty cell there, and that data set is left out of the ranks and
    the tests over data sets; the notes under the tables name both.

    \b
    Examples:
      bayesbench compare results/quickstart
      bayesbench compare results/ --metric f1_macro --baseline nb --format markdown
      bayesbench compare results/a results/b --test unpaired-t -o cmp.tex --format latex
      bayesbench compare table6.csv --plot cd.png
    """
    from pathlib import Path

    from .report.comparison import compare_paths

    _output_file(output, "-o")
    _output_file(plot, "--plot", (".png", ".svg", ".pdf"))
    result = compare_paths(inputs, metric=metric, baseline=baseline, test=test, alpha=alpha,
                           lower_is_better=lower_is_better)
    text = result.render(fmt)
    if output:
        Path(output).write_text(text)
    else:
        click.echo(text, nl=False)
    if plot:
        result.plot_cd(plot)
        click.echo(f"critical-difference diagram written to {plot}", err=True)


@main.command(short_help="List the data sets a name can refer to, or describe one.")
@click.argument("name", required=False)
@click.option("-d", "--data-dir", "data_dirs", multiple=True, metavar="DIR",
              help="Search DIR first, as a config's data_dirs (repeatable).")
@click.option("--class", "class_attribute", metavar="NAME",
              help="Class attribute of NAME (default: the last one).")
def datasets(name, data_dirs, class_attribute):
    """List every data set name and the file it resolves to, or describe NAME.

    A name is looked up in the --data-dir directories (a config's data_dirs),
    then BAYESBENCH_DATA, then the datasets/ directory of the bayesbench
    checkout you run from, then the data sets bundled with bayesbench; the
    first file called NAME, NAME.arff, NAME.csv, NAME.libsvm or NAME.svm wins.
    The list gives each name's rows, attributes, classes (present of
    declared), missing cells (rows) and where it was found. NAME (a name or a
    path) gives each attribute with its type, values or range and missing
    count, and the class distribution.

    \b
    Examples:
      bayesbench datasets
      bayesbench datasets car
      bayesbench datasets -d ~/uci tic-tac-toe
    """
    from .data import describe_dataset, list_datasets, search_path
    from .report.tables import render

    if name is None:
        where = {d: origin for origin, d in reversed(search_path(data_dirs))}
        click.echo("Search path, in order:")
        for i, (origin, d) in enumerate(search_path(data_dirs), 1):
            click.echo(f"  {i}. {origin:<16} {d}" + ("" if d.is_dir() else "  (absent)"))
        rows = []
        for e in list_datasets(data_dirs):
            found = e.origin + "".join(f", hides {where[p.parent]}" for p in e.hidden)
            c = e.counts
            rows.append([e.name, "-", f"unreadable: {e.error}", "-", "-", found] if c is None else [
                e.name, c.n_rows, f"{c.n_attributes} ({c.n_numeric} / {c.n_nominal})",
                c.classes_present if c.classes_present == c.n_classes else
                f"{c.classes_present} of {c.n_classes}",
                f"{c.missing_cells} ({c.missing_rows})" if c.missing_cells else "0", found])
        click.echo("\n" + render(rows, ["name", "rows", "attributes (num / nom)", "classes",
                                         "missing (rows)", "found in"]), nl=False)
        return
    d = describe_dataset(name, data_dirs, class_attribute)
    c = d.entry.counts
    click.echo(f"{d.entry.name}: {d.entry.path} ({d.entry.origin})\n{c.n_rows} rows, "
               f"{c.n_attributes} attributes ({c.n_numeric} numeric, {c.n_nominal} nominal), "
               + (f"{c.missing_cells} missing values in {c.missing_rows} rows"
                  if c.missing_cells else "no missing values") + "\n")
    rows = [[a.name, a.kind, f"{len(a.categories)}: " + ", ".join(a.categories[:8])
             + (", ..." if len(a.categories) > 8 else "") if a.kind == "nominal" else
             "-" if a.mean is None else f"{a.minimum:g} .. {a.maximum:g}, mean {a.mean:.4g}",
             a.missing] for a in d.attributes]
    click.echo(render(rows, ["attribute", "type", "values or range", "missing"]))
    rows = [[value, n, f"{100 * n / c.n_rows:.1f} %"] for value, n in d.class_counts]
    click.echo(render(rows, [f"class '{c.class_attribute}'", "rows", "share"]), nl=False)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
