"""The ``bayesbench`` command line: thin click commands that parse, call the library and print.

Errors end in one place, :meth:`_Group.main` (the policy is written at the top of
:mod:`bayesbench.errors`): a mistake on the command line is click's usage error, one
line on standard error and exit status 2; any other
:class:`~bayesbench.errors.BayesbenchError` is one line and its own exit status.
"""
from __future__ import annotations

import importlib
import json
import os
import signal
import sys
import threading
from dataclasses import replace
from pathlib import Path

import click

from . import __version__
from .errors import (BayesbenchError, ConfigChangedError, ConfigError, DataChangedError, DataError,
                     Interrupted, naming)
from .report.tables import extensions, format_names, render
from .spec import MAX_REPEATS, CompareSpec

# What an interrupted command says (ctx.meta key): the run command names its directory.
INTERRUPTED = "bayesbench.interrupted"
# Exit statuses of a command stopped by a signal, as a shell reports them (128 + signal).
EXIT_SIGPIPE, EXIT_SIGTERM = 141, 143
# A line of an error message is cut here: a value quoted in it may be a whole file.
MAX_LINE = 1000


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the main thread is so that it unwinds as Ctrl-C does: the
    records written are kept, the session says it was interrupted, the lock is released."""


def _terminated(signum, frame):
    raise _Terminated()


def _fail(message: str, code: int):
    lines = [line if len(line) <= MAX_LINE else line[:MAX_LINE - 3] + "..."
             for line in str(message).splitlines() or [""]]
    click.echo("bayesbench: error: " + "\n".join(lines), err=True)
    sys.exit(code)


def _reader_gone():
    """Standard output's reader went away (``bayesbench ... | head``): stop quietly,
    with what was written kept, and keep Python from failing again when it flushes
    standard output on the way out."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real standard output (a test runner's buffer)
        pass
    sys.exit(EXIT_SIGPIPE)


def _usage_message(exc: click.ClickException) -> str:
    """A click error in one line, naming the option (its long name) or argument at fault."""
    param = getattr(exc, "param", None)
    if (isinstance(exc, click.BadParameter) and not isinstance(exc, click.MissingParameter)
            and (param is not None or exc.param_hint)):
        if isinstance(exc.param_hint, str):
            hint = exc.param_hint
        elif isinstance(param, click.Option):
            hint = max(param.opts, key=len)
        else:
            hint = param.human_readable_name
        return f"{hint}: {exc.message}"
    return exc.format_message()


class _Group(click.Group):
    def main(self, *args, **kwargs):
        # The one place where errors become one line and an exit status.
        kwargs["standalone_mode"] = False
        try:
            return super().main(*args, **kwargs)
        except click.exceptions.NoArgsIsHelpError as exc:  # `bayesbench` alone: the help page
            exc.show()
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            _fail(_usage_message(exc), exc.exit_code)
        except click.Abort:  # Ctrl-C while click parses, before any command runs
            _fail("interrupted", Interrupted.exit_code)
        except BayesbenchError as exc:
            _fail(str(exc), exc.exit_code)
        except OSError as exc:
            # A file that cannot be written or read (no such directory, no permission, disk
            # full) is the user's environment, not a bug: one line naming the file.
            where = f"{exc.filename}: " if exc.filename is not None else ""
            _fail(f"{where}{exc.strerror or exc}", 1)

    def invoke(self, ctx):
        main_thread = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGTERM, _terminated) if main_thread else None
        try:
            return super().invoke(ctx)
        except BrokenPipeError:  # here, before click turns it into a silent exit status 1
            _reader_gone()
        except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM, caught here only
            message = ctx.meta.get(INTERRUPTED, "interrupted")
            if isinstance(exc, _Terminated):
                stopped = Interrupted("terminated" + message.removeprefix("interrupted"))
                stopped.exit_code = EXIT_SIGTERM
                raise stopped from None
            raise Interrupted(message) from None
        finally:
            if main_thread:
                signal.signal(signal.SIGTERM, previous)


class _Choice(click.Choice):
    """``click.Choice`` whose list is read, when first needed, from the module that owns it."""

    def __init__(self, module: str, name: str):
        self._home = (module, name)
        self.case_sensitive = True

    @property
    def choices(self):
        # lazy: the owning modules import numpy and scipy, which `bayesbench --help` never needs
        module, name = self._home
        return tuple(getattr(importlib.import_module(module), name))


class _FormatChoice(click.Choice):
    """The table formats (:data:`~bayesbench.report.tables.FORMATS`, read when first needed;
    with ``prose``, those that read among lines of text), and ``json``."""

    def __init__(self, prose: bool = False):
        self.prose = prose
        self.case_sensitive = True

    @property
    def choices(self):
        return (*format_names(prose=self.prose), "json")


class _Default:
    """A click default read, when first needed, from the module that owns it (shown in
    ``--help`` as its value, not as "dynamic")."""

    def __init__(self, module: str, name: str):
        self._home = (module, name)

    def __call__(self):
        # lazy: as _Choice's list
        module, name = self._home
        return getattr(importlib.import_module(module), name)

    def __str__(self) -> str:
        return str(self())


class _OutputFile(click.Path):
    """A file to write: its directory must exist, its suffix (if given) be one of ``suffixes``."""

    def __init__(self, suffixes=()):
        super().__init__(dir_okay=False)
        self.suffixes = suffixes

    def convert(self, value, param, ctx):
        path = Path(super().convert(value, param, ctx))
        if self.suffixes and path.suffix.lower() not in self.suffixes:
            self.fail(f"{path}: expected a file name ending in {', '.join(self.suffixes)}",
                      param, ctx)
        if not path.parent.is_dir():
            self.fail(f"{path}: the directory {path.parent} does not exist", param, ctx)
        return str(path)


class _Directory(click.Path):
    """A result directory: not empty text, which as a path is the working directory (the run
    would land among the user's files)."""

    def __init__(self):
        super().__init__(file_okay=False)

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            self.fail("is empty; give a directory, or leave the option out for "
                      "results/<name>", param, ctx)
        return super().convert(value, param, ctx)


class _Names(click.ParamType):
    """A comma-separated list of names; with ``choices``, each must be one of them (a
    ``what``, in messages)."""

    name = "names"

    def __init__(self, choices=None, what="name"):
        self.choices = choices  # a list, or a function that returns it when asked
        self.what = what

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        names = tuple(v.strip() for v in value.split(",") if v.strip())
        if not names:
            self.fail("expected one name or more, separated by commas", param, ctx)
        choices = self.choices() if callable(self.choices) else self.choices
        unknown = [n for n in names if choices is not None and n not in choices]
        if unknown:
            self.fail(f"unknown {self.what}(s) {', '.join(unknown)}; expected "
                      f"{', '.join(choices)}", param, ctx)
        return names


class _Share(click.ParamType):
    """A number between 0 and 1 (NaN is none)."""

    name = "share"

    def convert(self, value, param, ctx):
        try:
            share = float(value)
        except ValueError:
            share = None
        if share is None or not 0 <= share <= 1:
            self.fail(f"expected a number between 0 and 1, got {value}", param, ctx)
        return share


def _figure_formats():
    from .report.figures.plotting import FORMAT_NAMES  # lazy: read only when one is given

    return FORMAT_NAMES


class _Checked(click.ParamType):
    """A string that ``problem`` accepts (returns None for); otherwise what it returns is the
    message."""

    def __init__(self, name: str, problem):
        self.name = name
        self.problem = problem

    def convert(self, value, param, ctx):
        why = self.problem(value)
        if why:
            self.fail(why, param, ctx)
        return value


def _scheduler_problem(value: str) -> str | None:
    from .evaluation.executors import scheduler_problem  # lazy: read only when one is given

    return scheduler_problem(value)


def _character_problem(value: str) -> str | None:
    return None if len(value) == 1 else f"'{value}' is not one character"


def _check_output(output, inputs, hint: str) -> None:
    """Refuse (a usage error) an output file that is one of the command's input files, or
    one in a result directory (its records, config, summary tables, report, figures)."""
    if output is None:
        return
    from .evaluation.ownership import owning_run  # lazy: imports pandas, see run

    target = Path(output)
    for given in map(Path, inputs):
        same = given.is_file() and (target.resolve() == given.resolve() or (
            target.exists() and os.path.samefile(target, given)))
        if same:
            raise click.BadParameter(f"{output} is an input of this command; write the output "
                                     "elsewhere", param_hint=hint)
    run_dir = owning_run(target)
    if run_dir is not None:
        raise click.BadParameter(f"{output} belongs to the result directory {run_dir}; write "
                                 "the output elsewhere", param_hint=hint)


def _blame_option(exc: BayesbenchError, retry) -> None:
    """Raise ``exc`` as a usage error if ``retry``, the same call without one option's value,
    succeeds: then that value (a name the data lack) was the mistake. The library's message
    already names the value."""
    try:
        retry()
    except BayesbenchError:
        return
    raise click.UsageError(str(exc)) from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="bayesbench")
def main():
    """Run, compare and report experiments with Bayesian network classifiers.

    `run` cross-validates the classifiers of a YAML config on its data sets and
    writes records and summary tables to a result directory; `compare` tests
    classifiers against each other over result directories or a CSV of
    scores; `discretize` prints the cut points of a data set; `datasets`
    lists the data sets a name can refer to; `classifiers` lists the
    classifiers a config may name. Each command has its own page:
    bayesbench COMMAND --help. docs/configuration.md documents the config
    keys, docs/results.md the result directory, docs/statistics.md every
    statistic and docs/plugins.md classifiers of your own.

    \b
    Examples:
      bayesbench run configs/quickstart.yaml
      bayesbench compare results/quickstart
      bayesbench discretize iris --format json
      bayesbench classifiers tan

    \b
    Environment:
      BAYESBENCH_DATA  directories (':'-separated) searched for data sets
                       given by name, after the config's data_dirs

    \b
    Exit status:
      0    success, also when some tasks failed (see summary/failed_tasks.*)
      1    an error, reported in one line on standard error
      2    an invalid config or command line
      130  interrupted (Ctrl-C); run the same command again to resume
      141  standard output was closed (e.g. by `| head`)
      143  terminated (SIGTERM), as Ctrl-C
    """


@main.command()
@click.argument("config", type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--output", metavar="DIR", type=_Directory(),
              help="Result directory (config key 'output'; default results/<name>).")
@click.option("-j", "--jobs", type=click.IntRange(min=1),
              help="Worker processes (config key 'jobs'; default: all cores; 1 = serial).")
@click.option("--scheduler", metavar="local|ADDRESS", type=_Checked("scheduler", _scheduler_problem),
              help="Run on Dask (needs bayesbench[dask]; config key 'scheduler'): 'local' "
                   "starts a cluster of --jobs workers on this machine for the run, an "
                   "address such as tcp://host:8786 joins a running one.")
@click.option("--worker-threads", type=click.IntRange(min=1), metavar="N",
              help="BLAS and OpenMP threads of each worker (config key 'worker_threads'; "
                   "default: its share of the cores; the serial run is left alone).")
@click.option("--resume", is_flag=True,
              help="Continue a result directory even if its config differs; tasks that "
                   "still match are kept.")
@click.option("--force", is_flag=True,
              help="Never reuse the existing directory: write into <output>-2, -3, ...")
@click.option("-q", "--quiet", is_flag=True,
              help="No progress and no tables on the terminal; warnings and errors are still "
                   "printed.")
@click.option("--format", "formats", multiple=True, metavar="FORMAT", type=_Names(format_names, "format"),
              help=f"Summary table formats, repeatable or comma-separated: "
                   f"{', '.join(format_names())} (config key 'format'; default all).")
@click.option("--skip-missing", is_flag=True,
              help="Data sets given by name that are found nowhere are named, with the "
                   "directories searched, as a warning, and the others run (without it "
                   "they are a config error).")
@click.option("--repeats", type=click.IntRange(min=1, max=MAX_REPEATS), metavar="N",
              help="Override cv.repeats (a scheme that repeats; leave-one-out and "
                   "resubstitution take only 1), or evaluation.repeats (the decompositions of "
                   "a bias-variance run), e.g. 1 for a smoke test; a different experiment, so "
                   "give it its own --output.")
@click.option("--datasets", "only", metavar="NAME[,NAME...]", type=_Names(),
              help="Run only these data sets of the config (by their names in results).")
@click.option("--rerun-changed", is_flag=True,
              help="When a data file changed since its finished tasks were run (its SHA-256 "
                   "differs from the one recorded), or cannot be checked (environment.json "
                   "missing, damaged or without checksums), drop their records and run them "
                   "again (without it, the run is refused).")
@click.option("--max-table-cells", type=click.IntRange(min=1), metavar="N",
              help="Largest table of counts a learner may allocate (config key "
                   "'max_table_cells'; default: see docs/limits.md); a task over it fails "
                   "with a message naming the attributes and the size.")
@click.option("--figure-format", "figure_formats", multiple=True, metavar="FORMAT",
              type=_Names(_figure_formats, "figure format"),
              help="Formats of every figure, repeatable or comma-separated: svg (always: "
                   "report.html shows it), png, pdf (config key 'figure_format'; default "
                   "svg,png).")
@click.option("--consensus-threshold", type=_Share(), metavar="SHARE",
              help="Least share of the folds that learned an arc for a consensus network "
                   "to draw it, 0 to 1 (config key 'consensus_threshold'; default 0.5).")
def run(config, output, jobs, scheduler, worker_threads, resume, force, quiet, formats, skip_missing, repeats,
        only, rerun_changed, max_table_cells, figure_formats, consensus_threshold):
    """Run the experiment described by the YAML file CONFIG.

    Every classifier is cross-validated on every data set; one record per
    (data set, repetition, fold, classifier) goes to OUTPUT/records.jsonl as it
    finishes; at the end, summary tables go to OUTPUT/summary/, figures to
    OUTPUT/figures/ and one self-contained page to OUTPUT/report.html
    (docs/results.md describes every file). Running the
    same command again skips finished tasks, also after a crash. Options
    override the config keys of the same meaning. The config is checked
    completely first: every mistake is listed with its key path, and nothing
    is written. A config with `arms:` runs one experiment per arm into
    OUTPUT/<arm>/ and compares the arms in OUTPUT/comparison.*.

    \b
    Examples:
      bayesbench run configs/quickstart.yaml
      bayesbench run exp.yaml --jobs 1 --format markdown
      bayesbench run exp.yaml --scheduler local --jobs 2
      bayesbench run exp.yaml --scheduler tcp://scheduler-host:8786
      bayesbench run exp.yaml --resume
      BAYESBENCH_DATA=$HOME/data bayesbench run exp.yaml --skip-missing
      bayesbench run configs/papers/mihaljevic2013.yaml \\
          --repeats 1 --datasets car,wine -o /tmp/smoke
    """
    # Imported here, not at the top: they import numpy, pandas and scipy, which
    # `bayesbench --help` never needs.
    from .config import key_paths, load_config  # lazy: see above
    from .experiment import run_experiment  # lazy: see above

    if resume and force:
        raise click.UsageError("--resume and --force exclude each other")
    figure_formats = _checked_figure_formats(sum(figure_formats, ()))
    loaded = _overridden(load_config(config, skip_missing=skip_missing), repeats=repeats,
                         datasets=only, output=output, jobs=jobs, scheduler=scheduler,
                         formats=sum(formats, ()) or None, resume=resume, force=force,
                         quiet=quiet, command=tuple(sys.argv), rerun_changed=rerun_changed or None,
                         max_table_cells=max_table_cells, worker_threads=worker_threads,
                         figure_formats=figure_formats, consensus_threshold=consensus_threshold)
    experiment, options = loaded.experiment, loaded.options
    for name, message in options.skipped:
        click.echo(f"bayesbench: warning: data set '{name}' skipped: {message}", err=True)
    # Records are written as tasks finish, so an interrupted directory is a consistent partial run.
    where = "" if force else f" in {options.run_dir(experiment)}"
    click.get_current_context().meta[INTERRUPTED] = (
        f"interrupted; the finished tasks are kept{where}: run the same command again to resume")
    try:
        with key_paths(loaded.source):
            results = run_experiment(experiment, options)
    except DataChangedError as exc:
        raise click.UsageError(f"{exc}; --rerun-changed runs them again in that directory, "
                               f"--force writes a new one") from None
    except ConfigChangedError as exc:
        raise ConfigChangedError(
            f"{exc}; use --resume to continue it with this configuration (finished tasks that "
            f"still match are kept) or --force to write into a new directory",
            run_dir=exc.run_dir, changed=exc.changed) from None
    _print_runs(results, experiment.metrics[0], quiet)


def _checked_figure_formats(names: tuple) -> tuple | None:
    """``--figure-format``'s formats in their canonical order (None: not given)."""
    from .report.figures.plotting import FORMAT_NAMES, figure_format_problem  # lazy: see run

    if not names:
        return None
    if figure_format_problem(names):
        raise click.BadParameter(figure_format_problem(names), param_hint="--figure-format")
    return tuple(n for n in FORMAT_NAMES if n in names)


# The options of `run` that override a config key, by the key `override` names in its errors.
_OVERRIDE_FLAGS = {"datasets": "--datasets", "repeats": "--repeats", "jobs": "--jobs",
                   "worker_threads": "--worker-threads"}


def _overridden(loaded, **overrides):
    """``loaded`` with the command line's ``overrides`` (:func:`bayesbench.config.override`);
    an override it refuses is a usage error naming the option."""
    from .config import override  # lazy: see run

    try:
        return override(loaded, **overrides)
    except ConfigError as exc:
        raise click.BadParameter("; ".join(m for _, m in exc.problems),
                                 param_hint=_OVERRIDE_FLAGS[exc.problems[0][0]]) from None


def _print_runs(results, first_metric: str, quiet: bool) -> None:
    """Each run's table of the first metric and, when the run made them, of its bias-variance
    decomposition and its bootstrap estimate (each in the most readable format written), and
    counts."""
    from .report.figures.plotting import SKIPPED_MESSAGE  # lazy: see run
    from .report.run import bootstrap_estimates, decomposition  # lazy: pandas, see run
    from .report.run.summary_tables import FAILED_STEM, file_stem  # lazy: pandas, see run

    if any(r.figures_skipped for r in results):
        click.echo(SKIPPED_MESSAGE, err=True)
    stems = (file_stem(first_metric), decomposition.STEM, bootstrap_estimates.STEM)
    for result in results:
        if not quiet:
            for stem in stems:
                tables = [result.run_dir / "summary" / f"{stem}.{ext}" for ext in extensions()]
                table = next((t for t in tables if t.exists()), None)
                if table is not None:
                    click.echo(table.read_text())
            click.echo(f"{result.run_dir}: {result.n_tasks} tasks ({result.n_skipped} already "
                       f"done, {result.n_run} run, {len(result.errors)} failed); tables in "
                       f"{result.run_dir / 'summary'}")
            # No claim of figures that were not drawn (matplotlib missing: said above).
            drawn = "" if result.figures_skipped else f"figures in {result.run_dir / 'figures'}; "
            click.echo(f"{drawn}everything on one page: {result.report}")
        # Said even when quiet, as pip's -q keeps warnings and errors: -q hides progress,
        # tables and where the files went.
        for raised in result.warnings:
            click.echo(f"bayesbench: warning: {raised.line()}", err=True)
        if result.errors:
            click.echo(f"{len(result.errors)} task(s) failed; see "
                       f"{result.run_dir / 'summary'}/{FAILED_STEM}.*", err=True)
    if len(results) > 1 and not quiet:
        click.echo(f"arms compared in {results[0].run_dir.parent}/comparison.*")


@main.command(short_help="List the classifiers a config may name, or describe one.")
@click.argument("name", required=False)
def classifiers(name):
    """List every classifier a config may name, or describe classifier NAME.

    Without NAME: each built-in learner and each classifier that an installed
    package registers under the entry-point group `bayesbench.classifiers`,
    with the input it takes (codes, onehot, numeric or frame), its parameters
    and their defaults, and one line of description. A config may also name
    any class by its import path, package.module:Class (docs/plugins.md
    states what such a class must do). With NAME (a short name or an import
    path): its parameters, what each admits, and its whole docstring.

    \b
    Examples:
      bayesbench classifiers | grep codes
      bayesbench classifiers tan
      bayesbench classifiers sklearn.linear_model:LogisticRegression
    """
    from .errors import ClassifierError  # lazy: the registry imports numpy, see run
    from .models.registry import classifier_info, classifier_names  # lazy: see above

    if name is None:
        infos = [classifier_info(n) for n in classifier_names()]
        rows = [[i.name, i.input, ", ".join(f"{k}={v}" for k, v in i.defaults.items()) or "-",
                 i.summary if i.source == "built-in" else f"{i.summary} [{i.target}]"]
                for i in infos]
        # floatfmt "": defaults as written (1.0, 1e-09), not as four decimals
        click.echo(render(rows, ["name", "input", "parameters", "description"], floatfmt=""),
                   nl=False)
        return
    try:
        info = classifier_info(name)
    except ClassifierError as exc:
        raise click.BadParameter(str(exc), param_hint="NAME") from None
    click.echo(f"{info.name} ({info.source}: {info.target}); input: {info.input}\n")
    # Written out, not through a table: a table would print the default 0 of one parameter
    # as 0.0 because another's is 1.0.
    width = max((len(f"{k}={v}") for k, v in info.defaults.items()), default=0)
    for k, v in info.defaults.items():
        admits = info.constraints.get(k)
        click.echo(f"  {k}={v}".ljust(width + 4) + f"  {admits}" if admits else f"  {k}={v}")
    click.echo(f"\n{info.doc or '(no docstring)'}")


@main.command(short_help="Print (and apply) the cut points of a data set's numeric attributes.")
@click.argument("data")
@click.option("--method", type=_Choice("bayesbench.preprocess.discretize", "CUT_METHODS"),
              default="mdl", show_default=True, help="How cut points are chosen.")
@click.option("--bins", type=click.IntRange(min=1), default=10, show_default=True,
              help="Number of bins for 'width' and 'frequency'.")
@click.option("--max-cuts", type=click.IntRange(min=1), default=None, metavar="N",
              help="At most N cut points per attribute for 'mdl', the best first.")
@click.option("--class", "class_attribute", metavar="NAME",
              help="Class attribute (default: the last one).")
@click.option("--delimiter", metavar="CHAR", type=_Checked("character", _character_problem),
              help="CSV field separator (default ',').")
@click.option("-o", "--output", metavar="FILE", type=_OutputFile(),
              help="Also write the discretized data here as ARFF (Weka-style range labels).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True, help="How to print the cut points.")
def discretize(data, method, class_attribute, delimiter, output, fmt, **settings):
    """Print the cut points that discretize the numeric attributes of DATA.

    DATA is an ARFF, CSV or libsvm file, or the name of a bundled data set
    (iris, vote, ...). The cut points are fitted on all of DATA: 'mdl' is
    Fayyad and Irani's supervised method exactly as Weka's Discretize filter
    computes it (at most --max-cuts of them, the best first), 'fd'
    Freedman-Diaconis bins, 'width' and 'frequency' BINS equal-width or
    equal-frequency bins, 'pki' Weka's PKIDiscretize (about sqrt(n) bins of
    about sqrt(n) values), 'wpki' its weighted form (bins of at least 30
    values more than their number). A value v falls in the bin (a, b]
    with a < v <= b. Nominal attributes are left alone; a data set without
    numeric attributes is an error. With --format json the output is
    {"attribute": [cut, ...], ...} for the numeric attributes.

    \b
    Examples:
      bayesbench discretize iris --format json
      bayesbench discretize data.csv --method fd --class label
      bayesbench discretize glass.arff -o glass-mdl.arff
    """
    from .data import load_dataset, locate_dataset, write_arff  # lazy: numpy, see run
    from .preprocess.discretize import (Discretizer, cut_point_rows,  # lazy: numpy, see run
                                        methods_reading)

    # The methods' settings (bins, max_cuts) travel together to the Discretizer.
    if settings["max_cuts"] is not None and method not in methods_reading("max_cuts"):
        raise click.UsageError(f"--max-cuts bounds the cut points of "
                               f"{', '.join(map(repr, methods_reading('max_cuts')))} only, "
                               f"not of '{method}'")
    try:
        path = locate_dataset(data)
    except DataError as exc:  # DATA names no file and no bundled data set
        raise click.UsageError(str(exc)) from None
    _check_output(output, [path], "--output")
    try:
        ds = load_dataset(path, class_attribute, delimiter=delimiter)
    except DataError as exc:
        if class_attribute is not None:
            _blame_option(exc, lambda: load_dataset(path, delimiter=delimiter))
        raise
    if not ds.attributes:
        raise DataError(f"no attribute besides the class '{ds.target.name}' (for a CSV file: "
                        f"is the --delimiter right?)", path=path)
    if all(a.is_nominal for a in ds.attributes):
        raise DataError(f"no numeric attribute to discretize (its {len(ds.attributes)} "
                        f"attributes are all nominal)", path=path)
    fitted = Discretizer(method=method, **settings).fit(ds)
    if output:
        with naming(output):
            write_arff(fitted.transform(ds), output)
        click.echo(f"wrote {output}", err=True)
    if fmt == "json":
        click.echo(json.dumps({k: v.tolist() for k, v in fitted.cuts_.items()}, indent=1))
    else:
        # floatfmt "" keeps a lone cut point as written (6 decimals at most, as in Weka)
        click.echo(render(cut_point_rows(fitted.cuts_), ["attribute", "bins", "cut points"],
                          floatfmt=""))


@main.command()
@click.argument("inputs", nargs=-1, required=True, metavar="RUN_DIR...",
                type=click.Path(exists=True))
@click.option("--metric", default=None, metavar="NAME",
              help="Score to compare: a metric of the records (default accuracy; see "
                   "docs/configuration.md), "
                   "or a per-class score such as 'f1[M]'. For a CSV it only names the scores.")
@click.option("--baseline", metavar="NAME", help="Classifier the others are tested against "
                                                  "(default: for one result directory, the "
                                                  "baseline the run stored, as its own summary "
                                                  "compares; otherwise the first classifier).")
@click.option("--test", "test", default=_Default("bayesbench.stats", "DEFAULT_FOLD_TEST"),
              show_default=True,
              type=_Choice("bayesbench.stats", "FOLD_TESTS"),
              help="Test over the folds of each data set that sets the v / * marks.")
@click.option("--alpha", default=0.05, show_default=True,
              type=click.FloatRange(0, 1, min_open=True, max_open=True),
              help="Significance level of every test.")
@click.option("--lower-is-better/--higher-is-better", "lower_is_better", default=None,
              help="Direction of the scores (default: lower for error, log_loss and brier, and "
                   "higher for everything else, CSV scores included).")
@click.option("--rope", default=0.01, show_default=True, type=click.FloatRange(min=0),
              help="Half-width of practical equivalence of the Bayesian tests, in the "
                   "metric's units (0.01: one point of accuracy).")
@click.option("--samples", default=50000, show_default=True, type=click.IntRange(min=0),
              help="Monte Carlo draws of the Bayesian signed-rank test (baycomp's default); "
                   "fewer for many classifiers on many data sets, 0 to leave the test out.")
@click.option("--format", "fmt", default="text", show_default=True,
              type=_FormatChoice(),
              help="Table format; json: one document with every table, for scripts.")
@click.option("-o", "--output", metavar="FILE", type=_OutputFile(),
              help="Write the tables to this file.")
@click.option("--plot", metavar="FILE.png|FILE.svg|FILE.pdf",
              type=_OutputFile((".png", ".svg", ".pdf")),
              help="Also draw the critical-difference diagram (Demsar 2006, Fig. 1).")
@click.option("--report", "report_dir", metavar="DIR", type=click.Path(file_okay=False),
              help="Also write DIR/report.html and the figures (DIR/figures/): the CD "
                   "diagram, fold scores, each classifier against the baseline, and the "
                   "learned networks of result directories.")
@click.option("-q", "--quiet", is_flag=True,
              help="No tables on standard output and no notes of the files written (for "
                   "scripts with -o, --plot or --report); errors are still reported.")
def compare(inputs, metric, baseline, test, alpha, lower_is_better, rope, samples, fmt, output,
            plot, report_dir, quiet):
    """Compare classifiers across runs with significance tests.

    RUN_DIR... are result directories written by `bayesbench run`, or directories holding
    several of them, or one CSV file of scores (first column the data set, one column per
    classifier, e.g. a published table). Classifiers are named by their labels; a label found in
    two runs is prefixed with the run's directory name.

    Printed: a data sets x classifiers table of mean +- std over folds, the best of each row
    marked, and `v` / `*` where a classifier is significantly better / worse than the baseline
    on that data set (--test over its folds; paired tests refuse runs made with different folds
    or seeds, the unpaired t-test does not); average ranks and wins/ties/losses; Friedman's
    chi-square (Demsar's formula, and scipy's tie-corrected value) and the Iman-Davenport F;
    Nemenyi and Bonferroni-Dunn critical differences; Holm, Bonferroni-Dunn, Wilcoxon
    signed-rank and sign tests against the baseline, each with effect sizes (Cohen's d_z,
    rank-biserial) and the Bayesian signed-rank test's P(better), P(rope), P(worse) (--rope);
    per data set the fold test's p-value beside the mean difference with its 95% interval and
    the Bayesian correlated t-test; every pair's Nemenyi and Holm-adjusted Wilcoxon p-values. A
    CSV with one score per cell (a published table, a run's summary/<metric>.csv) gets only the
    tests over data sets; a long CSV with folds (a run's summary/scores.csv, with --metric) gets
    them all.

    The baseline of one result directory is the one the run stored (its config's
    compare.baseline, else its first classifier when created), as in the run's own summary; the
    notes say so. With several runs or a CSV it is the first classifier. A classifier that
    failed (or has no score) on some fold of a data set gets an empty cell there, and that data
    set is left out of the ranks and the tests over data sets; the notes under the tables name
    both.

    \b
    Examples:
      bayesbench compare results/quickstart
      bayesbench compare results/ --metric f1_macro --baseline nb --format markdown
      bayesbench compare results/a results/b --test unpaired-t -o cmp.tex --format latex
      bayesbench compare table6.csv --plot cd.png
      bayesbench compare results/quickstart --format json --rope 0.02
      bayesbench compare results/a results/b --report cmp/
    """
    from .evaluation.metrics import METRIC_NAMES, is_metric  # lazy: scipy, see run
    from .report.compare.inputs import compare_paths  # lazy: pandas, see run

    _check_compare_outputs(inputs, output, plot, report_dir)
    if metric is not None and not Path(inputs[0]).is_file() and not is_metric(metric):
        raise click.BadParameter(f"unknown metric '{metric}'; expected one of "
                                 f"{', '.join(METRIC_NAMES)} or a per-class score such as "
                                 f"f1[CLASS]", param_hint="--metric")
    settings = CompareSpec(metric=metric, baseline=baseline, test=test, alpha=alpha, rope=rope)
    options = {"lower_is_better": lower_is_better, "samples": samples}
    try:
        result = compare_paths(inputs, settings, **options)
    except BayesbenchError as exc:
        if baseline is not None:
            _blame_option(exc, lambda: compare_paths(inputs, replace(settings, baseline=None),
                                                     **options))
        if metric is not None:
            _blame_option(exc, lambda: compare_paths(inputs, replace(settings, metric=None),
                                                     **options))
        raise
    _write_compared(result, inputs, fmt, output, plot, report_dir, quiet)


def _check_compare_outputs(inputs, output, plot, report_dir) -> None:
    """Refuse (usage errors) outputs of ``compare`` that would overwrite an input or a file
    of another owner."""
    for path, flag in ((output, "--output"), (plot, "--plot"), (report_dir, "--report")):
        _check_output(path, inputs, flag)
    if report_dir is not None:
        from .evaluation.ownership import COMPARE_REPORT, check_claimable  # lazy: see run

        try:
            check_claimable(report_dir, COMPARE_REPORT)
        except BayesbenchError as exc:
            raise click.BadParameter(str(exc), param_hint="--report") from None


def _write_compared(result, inputs, fmt, output, plot, report_dir, quiet=False) -> None:
    """Print (or write) the comparison, and draw what --plot and --report ask for."""
    from .report.compare.compare_report import write_compare_report  # lazy: pandas, see run
    from .report.compare.inputs import run_arcs, run_networks  # lazy: pandas, see run
    from .report.figures.cdplot import plot_cd  # lazy: see run
    from .report.figures.plotting import SKIPPED_MESSAGE, plotting_available  # lazy: see run
    from .report.render import comparison_json, render_comparison  # lazy: see run

    text = comparison_json(result) if fmt == "json" else render_comparison(result, fmt)
    if output:
        with naming(output):
            Path(output).write_text(text)
    elif not quiet:
        click.echo(text, nl=False)
    if plot:
        plot_cd(result, plot)
        if not quiet:
            click.echo(f"critical-difference diagram written to {plot}", err=True)
    if report_dir:
        from .evaluation.ownership import COMPARE_REPORT, claim  # lazy: see run

        page = write_compare_report(claim(report_dir, COMPARE_REPORT), result, inputs,
                                    run_networks(inputs), run_arcs(inputs))
        if not plotting_available():
            click.echo(SKIPPED_MESSAGE, err=True)  # said even when quiet: something is missing
        if not quiet:
            click.echo(f"report written to {page}", err=True)


@main.command(short_help="Hold a run against the table its paper printed.")
@click.argument("run_dir", metavar="RUN_DIR", type=click.Path(exists=True, file_okay=False))
@click.option("--format", "fmt", default="text", show_default=True,
              type=_FormatChoice(prose=True),
              help="A table format that reads among lines of text (text, markdown); json: "
                   "one document, a list of cells, for scripts.")
def check(run_dir, fmt):
    """Hold RUN_DIR against the published table its config names.

    RUN_DIR is a result directory of a paper config (configs/papers/), or the directory
    of its arms. Its config.yaml names the paper's numbers (`published:`); each printed
    cell is set beside ours: ours (mean ± sd over the test folds), the paper's, the
    difference, the tolerance 2 sqrt(se_ours² + se_paper²) (plus half a unit of the
    paper's last printed digit) and whether the difference is within it; then the
    counts, and where the paper prints Friedman ranks or the outcome of a test, ours
    beside them. The exit status is 0 whatever the counts; 2 for a run whose config
    names no published table.

    \b
    Examples:
      bayesbench check results/mihaljevic2013
      bayesbench check results/hurley_ellingsen --format json
      bayesbench check results/barrow2011 --format markdown
    """
    from .report.check.against import check_run  # lazy: pandas, see run
    from .report.check.check_render import check_json, render_check  # lazy: pandas, see run

    result = check_run(run_dir)
    click.echo(check_json(result) if fmt == "json" else render_check(result, fmt), nl=False)


@main.command(short_help="List the data sets a name can refer to, or describe one.")
@click.argument("name", required=False)
@click.option("-d", "--data-dir", "data_dirs", multiple=True, metavar="DIR",
              type=click.Path(exists=True, file_okay=False),
              help="Search DIR first, as a config's data_dirs (repeatable; it must exist).")
@click.option("--class", "class_attribute", metavar="NAME",
              help="Class attribute of NAME (default: the last one).")
def datasets(name, data_dirs, class_attribute):
    """List every data set name and the file it resolves to, or describe NAME.

    A name is looked up in the --data-dir directories (a config's data_dirs),
    then BAYESBENCH_DATA, then the datasets/ directory of the bayesbench
    checkout (or its copy installed with the package), then the data sets
    bundled with bayesbench; the
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
    from .data import describe_dataset, list_datasets, search_path  # lazy: numpy, see run
    from .data.names import canonical  # lazy: with the line above
    from .report.tables import render  # lazy: tabulate, see run

    if name is None:
        where = {d: origin for origin, d in reversed(search_path(data_dirs))}
        click.echo("Search path, in order:")
        for i, (origin, d) in enumerate(search_path(data_dirs), 1):
            click.echo(f"  {i}. {origin:<16} {d}" + ("" if d.is_dir() else "  (absent)"))
        rows = []
        for e in list_datasets(data_dirs):
            found = e.origin + "".join(f", hides {where[p.parent]}" for p in e.hidden) + (
                f", alias of {canonical(e.name)}" if canonical(e.name) != e.name else "")
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
