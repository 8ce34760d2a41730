"""`bayesbench datasets [NAME]`: the list against datasets/README.md, one description against
UCI's published class distribution, and the one-line error for a name found nowhere."""
import re
from pathlib import Path

from click.testing import CliRunner

from bayesbench.cli import main
from bayesbench.data import DATA_ENV

ROOT = Path(__file__).resolve().parents[1]


def invoke(*args, env=None):
    return CliRunner().invoke(main, ["datasets", *map(str, args)], env={DATA_ENV: "", **(env or {})})


def listed(output: str) -> dict[str, list[str]]:
    """The table's rows by name, split on runs of two or more spaces."""
    table = output.split("\n\n", 1)[1].splitlines()[2:]
    return {cells[0]: cells for cells in (re.split(r"\s{2,}", line.strip()) for line in table)}


def test_lists_every_shipped_file_with_the_readmes_counts(datasets_readme):
    result = invoke()
    assert result.exit_code == 0, result.output
    assert "1. checkout" in result.output and str(ROOT / "datasets") in result.output
    rows = listed(result.output)
    expected = {Path(r["file"]).stem: (where, r) for where in ("bundled", "checkout")
                for r in datasets_readme[where]}   # a checkout file hides a bundled one
    assert set(rows) == set(expected)
    for name, (where, r) in expected.items():
        classes = r["classes"] if not r["declared"] else f"{r['classes']} of {r['declared']}"
        missing = "0" if r["missing"] == "no" else f"{r['cells']} ({r['mrows']})"
        assert rows[name][1:5] == [r["rows"], f"{r['atts']} ({r['num']} / {r['nom']})",
                                   classes, missing], name
        if name != "vote":
            assert rows[name][5].split(",")[0] == where, name
    assert rows["iris"][5] == "checkout, hides bundled"
    # An alias is its canonical data set's file (bayesbench/data/names.py).
    assert rows["vote"][5] == "checkout, hides bundled, alias of house-votes-84"


def test_data_dir_comes_first(tmp_path):
    (tmp_path / "car.csv").write_text("a,class\n1,x\n2,y\n3,?\n")
    rows = listed(invoke("-d", tmp_path).output)
    assert rows["car"][1:] == ["2", "1 (1 / 0)", "2", "0", "data_dirs, hides checkout"]


def test_describes_one_data_set():
    result = invoke("car")
    assert result.exit_code == 0, result.output
    first, second = result.output.splitlines()[:2]
    assert first == f"car: {ROOT / 'datasets' / 'car.arff'} (checkout)"
    assert second == "1728 rows, 6 attributes (0 numeric, 6 nominal), no missing values"
    assert re.search(r"^buying +nominal +4: vhigh, high, med, low +0$", result.output, re.M)
    # car.names (UCI): unacc 1210 (70.023 %), acc 384 (22.222 %), good 69, v-good 65
    assert re.search(r"^unacc +1210 +70\.0 %$", result.output, re.M)
    assert re.search(r"^vgood +65 +3\.8 %$", result.output, re.M)
    labor = invoke("labor").output
    assert "326 missing values in 56 rows" in labor
    assert re.search(r"^duration +numeric +1 \.\. 3, mean 2\.161 +1$", labor, re.M)


def test_a_name_found_nowhere_is_one_line_naming_the_search_path():
    result = invoke("no-such-data")
    assert result.exit_code == 1
    assert result.output.count("\n") == 1
    assert "no-such-data: no such file, nor a data set of that name in" in result.output
    assert str(ROOT / "datasets") in result.output
