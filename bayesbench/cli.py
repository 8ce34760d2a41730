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


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="bayesbench")
def main():
    """Run, compare and report experiments with Bayesian network classifiers.

    \b
    Examples:
      bayesbench run configs/quickstart.yaml
      bayesbench compare results/quickstart
      bayesbench discretize datasets/iris.arff --format json
    """


@main.command()
@click.argument("data")
@click.option("--method", type=click.Choice(["mdl", "fd", "width", "frequency"]), default="mdl",
              show_default=True, help="How cut points are chosen.")
@click.option("--bins", type=click.IntRange(min=1), default=10, show_default=True,
              help="Number of bins for 'width' and 'frequency'.")
@click.option("--class", "class_attribute", metavar="NAME",
              help="Class attribute (default: the last one).")
@click.option("--delimiter", metavar="CHAR", help="CSV field separator (default ',').")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
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
    with a < v <= b. Nominal attributes are left alone. With --format json
    the output is {"attribute": [cut, ...], ...} for the numeric attributes.

    \b
    Examples:
      bayesbench discretize iris --format json
      bayesbench discretize data.csv --method fd --class label
      bayesbench discretize glass.arff -o glass-mdl.arff
    """
    import json

    from .data import load_dataset, locate_dataset, write_arff
    from .preprocess.discretize import Discretizer, cut_point_rows
    from .report.tables import render

    ds = load_dataset(locate_dataset(data), class_attribute, delimiter=delimiter)
    fitted = Discretizer(method=method, bins=bins).fit(ds)
    if output:
        write_arff(fitted.transform(ds), output)
        click.echo(f"wrote {output}", err=True)
    if fmt == "json":
        click.echo(json.dumps({k: v.tolist() for k, v in fitted.cuts_.items()}, indent=1))
    else:
        click.echo(render(cut_point_rows(fitted.cuts_), ["attribute", "bins", "cut points"]))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
