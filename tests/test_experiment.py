"""Result directories written by an earlier version resume without recomputing anything."""
import shutil
from pathlib import Path

from click.testing import CliRunner

from bayesbench.cli import main

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "run-d38ed37"
# The fixture's config names its data files by this absolute path (task ids hash it), so
# the files are put back there before the fixture is resumed.
DATA = Path("/tmp/bayesbench-fixture-d38ed37/data")


def _place_data():
    DATA.mkdir(parents=True, exist_ok=True)
    for source in (FIXTURE / "data").iterdir():
        target = DATA / source.name
        if not target.exists() or target.read_bytes() != source.read_bytes():
            tmp = target.with_suffix(".tmp")
            shutil.copyfile(source, tmp)
            tmp.replace(target)  # atomic: a concurrent test run never reads half a file


def test_a_run_directory_of_commit_d38ed37_resumes_with_nothing_to_do(tmp_path):
    # Written by `bayesbench run fixture.yaml -o run -j 1 -q --format csv` at commit d38ed37
    # (before issue 10): two arms, three data sets, four classifiers, failed tasks included.
    _place_data()
    run = tmp_path / "run"
    shutil.copytree(FIXTURE / "run", run)
    before = {p.relative_to(run): p.read_bytes() for p in run.rglob("*") if p.is_file()}
    result = CliRunner().invoke(main, ["run", str(FIXTURE / "fixture.yaml"), "-o", str(run),
                                       "-j", "1", "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert result.stdout.count("(36 already done, 0 run, 6 failed)") == 2, result.stdout
    for arm in ("clean", "noisy"):
        for name in ("records.jsonl", "tasks.txt"):
            assert (run / arm / name).read_bytes() == before[Path(arm, name)]
        # Summaries written again, from the same records, are the same bytes.
        for table in (run / arm / "summary").iterdir():
            assert table.read_bytes() == before[table.relative_to(run)], table
    assert (run / "comparison.csv").read_bytes() == before[Path("comparison.csv")]
