"""Draw the critical-difference diagram of Demšar (2006), Table 6, for docs/statistics.md.

Reads the printed AUCs from tests/reference/demsar2006.json (provenance in
tests/reference/README.md), writes them as a CSV of scores and runs them
through the same code as ``bayesbench compare``:

    python docs/make_cd_example.py          # writes docs/cd_demsar2006.png and .svg

which is equivalent to

    bayesbench compare table6.csv --plot docs/cd_demsar2006.png
"""
from __future__ import annotations

import csv
import json
import sys
import tempfile
from pathlib import Path

from bayesbench.report.analysis import compare_scores
from bayesbench.report.compare.score_csv import read_scores_csv
from bayesbench.report.figures.cdplot import plot_cd
from bayesbench.report.render import render_comparison
from bayesbench.spec import CompareSpec

HERE = Path(__file__).resolve().parent
REFERENCE = HERE.parent / "tests" / "reference" / "demsar2006.json"


def write_table6_csv(reference: Path, out: Path) -> Path:
    table = json.loads(reference.read_text())["table6"]
    with open(out, "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["dataset", *table["classifiers"]])
        for name, row in zip(table["datasets"], table["auc"]):
            writer.writerow([name, *row])
    return out


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        scores = read_scores_csv(write_table6_csv(REFERENCE, Path(tmp) / "table6.csv")).scores
    result = compare_scores(scores, CompareSpec(metric="AUC", alpha=0.05))
    for suffix in (".png", ".svg"):
        plot_cd(result, HERE / f"cd_demsar2006{suffix}")
    print(render_comparison(result, "text"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
