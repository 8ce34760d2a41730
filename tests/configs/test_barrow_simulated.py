"""Paper 000's simulated data sets (datasets/barrow2011_simulated/): the committed files are
what docs/make_barrow_simulated.py writes, byte for byte, and they have the properties the
paper's sec. 3.2-3.4 and the script's stated model give them, measured on the files."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

import numpy as np
import pandas as pd

from helpers import docs_script

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "datasets" / "barrow2011_simulated"


def test_the_committed_files_are_the_generators_output(tmp_path):
    assert docs_script("make_barrow_simulated").main(["--output", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(p.name for p in DATA.iterdir())
    for name in written:
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), name
    # The README's checksums are those of the files.
    rows = re.findall(r"^\| (\S+\.csv) \| (\d+) \| ([0-9a-f]{64}) \|$",
                      (DATA / "README.md").read_text(), flags=re.M)
    assert len(rows) == 42
    for name, n, digest in rows:
        data = (DATA / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == digest
        assert data.count(b"\n") - 1 == int(n)


def test_balance_sets_have_four_attributes_150_to_300_rows_and_the_stated_covariance():
    # Sec. 3.2: "a training set of between 150 and 300 4-attribute examples"; balance -1 a
    # large covariance in the direction of the negative class, +1 of the positive, 0 little.
    for sign, covariant, other in (("m", "neg", "pos"), ("p", "pos", "neg")):
        frame = pd.read_csv(DATA / f"barrow_balance_{sign}1.0.csv")
        assert list(frame.columns) == ["a1", "a2", "a3", "a4", "class"]
        assert 150 <= len(frame) <= 300
        counts = frame["class"].value_counts()
        assert abs(counts["neg"] - counts["pos"]) <= 1
        by_class = {c: np.corrcoef(g.iloc[:, :4].to_numpy(), rowvar=False)
                    for c, g in frame.groupby("class")}
        # The script's model: correlation 0.95 * l_i * l_j, l = (1, 0.8, 0.6, 0.4), in the
        # covariant class; none in the other. Standard error of r about (1 - r^2)/sqrt(n).
        n = counts.min()
        assert abs(by_class[covariant][0, 1] - 0.95 * 0.8) < 4 * (1 - 0.76 ** 2) / np.sqrt(n)
        assert abs(by_class[other][0, 1]) < 4 / np.sqrt(n)
    middle = pd.read_csv(DATA / "barrow_balance_0.0.csv")
    for _, g in middle.groupby("class"):
        r = np.corrcoef(g.iloc[:, :4].to_numpy(), rowvar=False)
        assert np.abs(r[np.triu_indices(4, 1)]).max() < 4 / np.sqrt(len(g))


def test_sparsity_sets_walk_10_to_110_rows():
    # Sec. 3.4: "walk the number of examples in the training data from 10 to 110".
    sizes = sorted(len(pd.read_csv(p)) for p in DATA.glob("barrow_sparsity_n*.csv"))
    assert sizes == list(range(10, 111, 5))
