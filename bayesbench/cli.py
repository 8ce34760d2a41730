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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
