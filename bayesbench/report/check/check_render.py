"""A :class:`~.check.Check` as text (``bayesbench check``) or JSON (``--format json``)."""
from __future__ import annotations

import json
import math

from ..tables import render
from .against import Check

__all__ = ["CELL_HEADERS", "cell_rows", "render_check", "extra_lines", "check_json"]

CELL_HEADERS = ["dataset", "classifier", "arm", "metric", "ours", "paper", "difference",
                "tolerance", "within"]


def _number(value, digits: int = 3) -> str:
    return "-" if value is None or not math.isfinite(value) else f"{value:.{digits}f}"


def cell_rows(check: Check) -> list[list]:
    """One row per cell, in the order of :data:`CELL_HEADERS`."""
    return [[c.dataset, c.classifier, c.arm or "-", c.metric,
             f"{_number(c.ours)} ± {_number(c.ours_sd)}",
             _number(c.paper) + ("" if c.paper_spread is None else f" ± {_number(c.paper_spread)}"),
             f"{c.difference:+.3f}", _number(c.tolerance), "within" if c.within else "off"]
            for c in check.cells]


def render_check(check: Check, fmt: str = "text") -> str:
    """The cells, the counts, then the paper's ranks and tests beside ours."""
    counts = check.counts
    lines = [f"{check.run} against {check.paper} ({check.published})",
             f"rule: {check.to_dict()['rule']}; se_ours = sd / sqrt(test folds)", ""]
    if check.cells:
        lines += [render(cell_rows(check), CELL_HEADERS, fmt, floatfmt=".3f").rstrip(), ""]
    lines.append(f"{counts['cells']} cells: {counts['within']} within, {counts['off']} off"
                 + (f"; {counts['not_run']} printed cells not run, of "
                    + ", ".join(dict.fromkeys(d for d, _ in check.not_run))
                    if check.not_run else ""))
    extra = extra_lines(check, fmt)
    return "\n".join(lines + ([""] + extra if extra else [])).rstrip() + "\n"


def extra_lines(check: Check, fmt: str = "text") -> list[str]:
    """The paper's ranks and test outcomes beside ours, as lines (empty when it prints none)."""
    out = []
    if check.ranks:
        out += [_ranks_text(check.ranks, fmt), ""]
    for test in check.tests:
        out += [*_test_lines(test), ""]
    return out[:-1]


def _ranks_text(ranks: dict, fmt: str) -> str:
    if "note" in ranks:
        return f"Friedman's average ranks of the paper's {ranks['table']}: {ranks['note']}"
    rows = [[c, f"{v['ours']:.2f}", f"{v['paper']:.2f}"] for c, v in ranks["ranks"].items()]
    fp, idp = ranks["friedman_pvalue"], ranks["iman_davenport_pvalue"]
    return "\n".join([
        f"Friedman's average ranks (1 = best) over our {ranks['datasets']} data sets, "
        f"the paper's {ranks['table']}:", "",
        render(rows, ["classifier", "ours", "paper"], fmt, floatfmt=".2f"), "",
        f"Friedman p: ours {fp['ours']:.3f}, paper {fp['paper']}; "
        f"Iman-Davenport p: ours {idp['ours']:.3f}, paper {idp['paper']}"])


def _between_lines(test: dict) -> list[str]:
    """A test between data sets: each data set against the group, ours under each reading."""
    head = (f"{test['classifier']}, {test['test']} test on {test['metric']} between data sets "
            f"({test['table']}): the fold scores of {', '.join(test['group'])} "
            f"({' / '.join(test['readings'])}: each fold score / the group's mean per fold) "
            "against those of:")
    return [head] + [f"- {d}: p ours " + " / ".join(
        "-" if p is None else f"{p:.3g}" for p in v["ours"].values()) + f", paper {v['paper']}"
        for d, v in test["between"].items()]


def _test_lines(test: dict) -> list[str]:
    if "between" in test:
        return _between_lines(test)
    head = (f"{test['classifier']} against {test['baseline']}, {test['test']} test on "
            f"{test['metric']} at {test['alpha']} ({test['table']}):")
    out = [head]
    if "pvalues" in test:
        out += [f"- {d}: p ours {_number(v['ours'])}, paper {v['paper']}"
                for d, v in test["pvalues"].items()]
    for key in ("better", "worse"):
        if key in test:
            out.append(f"- significantly {key}: ours {', '.join(test[key]['ours']) or 'none'}; "
                       f"paper {', '.join(test[key]['paper']) or 'none'}")
    if "win_tie_loss" in test:
        ours, paper = test["win_tie_loss"]["ours"], test["win_tie_loss"]["paper"]
        out.append(f"- wins/ties/losses: ours {'/'.join(map(str, ours))} "
                   f"(on {len(test.get('datasets', []))} data sets); "
                   f"paper {'/'.join(map(str, paper))}")
    if "note" in test:
        out.append(f"- {test['note']}")
    elif len(out) == 1:
        out.append("- not computed: the run lacks one of the two")
    return out


def check_json(check: Check) -> str:
    return json.dumps(check.to_dict(), indent=1)
