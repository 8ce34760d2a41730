"""kernel_nb, gaussian_tan and gaussian_kdb in runs: the same records serially, in processes
and on Dask; what they cannot take refused before any work, in one line per problem."""
import pytest
from click.testing import CliRunner

from bayesbench.cli import main
from bayesbench.config import parse_config
from bayesbench.errors import PlanError
from bayesbench.evaluation.store import read_records
from helpers import run, stable_order, without_timings

CLASSIFIERS = ["kernel_nb", {"name": "gaussian_tan", "input": "numeric"},
               {"name": "gaussian_kdb", "input": "numeric", "params": {"k": 2}}]


def _raw(uci_dir, out, impute="weighted_random", classifiers=CLASSIFIERS):
    # labor: nominal and numeric attributes, missing values (imputed at random here, so
    # that the seeding across processes is tested too).
    return {"name": "continuous", "seed": 5, "data_dirs": [str(uci_dir)],
            "datasets": ["iris", "labor"], "preprocess": {"impute": impute},
            "cv": {"folds": 3, "repeats": 1}, "classifiers": classifiers, "output": str(out)}


def _records(run_dir):
    return [without_timings(r) for r in stable_order(read_records(run_dir))]


@pytest.fixture(scope="module")
def serial(uci_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("serial") / "run"
    result = run(parse_config(_raw(uci_dir, out), base_dir=out.parent), jobs=1, quiet=True)
    assert result.n_run == 2 * 3 * 3 and not result.errors
    return _records(out)


def test_structures_are_recorded(serial):
    first = {r["classifier"]: r for r in serial
             if r["dataset"] == "iris" and (r["repetition"], r["fold"]) == (0, 0)}
    assert first["kernel_nb"]["structure"].startswith("kernel naive bayes over 4 attributes")
    tan = first["gaussian_tan"]
    assert len(tan["network"]["nodes"]) == 4 and tan["structure"].startswith("4 nodes; 3 arcs")
    labor = next(r for r in serial if r["dataset"] == "labor" and r["learner"] == "gaussian_kdb")
    assert labor["input"] == "numeric" and labor["n_attributes"] == 16
    assert len(labor["attributes"]) == 8  # the nominal ones left out, as asked


def test_processes_and_dask_give_the_serial_records(serial, uci_dir, tmp_path):
    out = tmp_path / "jobs"
    run(parse_config(_raw(uci_dir, out), base_dir=tmp_path), jobs=2, quiet=True)
    assert _records(out) == serial
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "dask"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        run(parse_config(_raw(uci_dir, out), base_dir=tmp_path), scheduler=cluster.scheduler_address,
            quiet=True)
    assert _records(out) == serial


def test_kernel_nb_takes_missing_values_and_nominal_attributes_in_a_run(uci_dir, tmp_path):
    out = tmp_path / "run"
    result = run(parse_config(_raw(uci_dir, out, "none", ["kernel_nb"]), base_dir=tmp_path),
                 jobs=1, quiet=True)
    labor = [r for r in result.records if r["dataset"] == "labor"]
    assert len(labor) == 3 and all(r["status"] == "ok" for r in labor)
    assert "8 numeric by kernel estimates" in labor[0]["structure"]
    assert "8 nominal by counts" in labor[0]["structure"]


def test_gaussian_networks_refuse_nominal_and_missing_before_any_work(uci_dir, tmp_path):
    out = tmp_path / "run"
    raw = _raw(uci_dir, out, "none", ["gaussian_tan", {"name": "gaussian_kdb",
                                                       "input": "numeric"}])
    with pytest.raises(PlanError) as err:
        run(parse_config(raw, base_dir=tmp_path), jobs=1, quiet=True)
    assert not out.exists()
    messages = [message for _, message in err.value.problems]
    assert messages == [
        "gaussian_tan cannot take data set labor: it takes numeric attributes only, and "
        "attributes 'cost-of-living-adjustment', 'pension', 'education-allowance' and 5 more "
        "are nominal; give the classifier 'input: numeric' to leave them out",
        "gaussian_tan cannot take data set labor: attributes 'duration', "
        "'wage-increase-first-year', 'wage-increase-second-year' and 5 more have missing "
        "values; set preprocess.impute (mean_mode, weighted_random or drop)",
        "gaussian_kdb cannot take data set labor: attributes 'duration', "
        "'wage-increase-first-year', 'wage-increase-second-year' and 5 more have missing "
        "values; set preprocess.impute (mean_mode, weighted_random or drop)"]
    assert all(field == ("datasets", 1) for field, _ in err.value.problems)
    # The command line: one line per problem, exit status 2, nothing written.
    config = tmp_path / "c.yaml"
    import yaml

    config.write_text(yaml.safe_dump(raw))
    res = CliRunner().invoke(main, ["run", str(config), "--quiet"])
    assert res.exit_code == 2
    assert "datasets[1]: gaussian_tan cannot take data set labor" in res.output
    assert "Traceback" not in res.output and not out.exists()
