"""libsvm reading on hand-made files and against scikit-learn's reader."""
import numpy as np
import pytest

from bayesbench.data import MISSING, load_dataset
from bayesbench.errors import DataError


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_libsvm_standard_layout(tmp_path):
    path = write(tmp_path, "t.libsvm",
                 "# a comment line\n+1 1:0.5 3:2\n-1 2:1   # trailing comment\n\n+1 1:1 2:? 3:4\n")
    ds = load_dataset(path)
    assert ds.attribute_names == ["att_1", "att_2", "att_3"]
    assert ds.target.name == "class" and ds.class_names == ("-1", "1")
    np.testing.assert_array_equal(ds.numeric_matrix(),
                                  [[0.5, 0.0, 2.0], [0.0, 1.0, 0.0], [1.0, np.nan, 4.0]])
    assert ds.y.tolist() == [1, 0, 1]


def test_libsvm_matches_sklearn_reader(uci_dir, tmp_path):
    sk = pytest.importorskip("sklearn.datasets")
    ds = load_dataset(uci_dir / "wine.arff")
    path = tmp_path / "wine.svm"
    sk.dump_svmlight_file(ds.numeric_matrix(), ds.y, str(path), zero_based=False)
    X, y = sk.load_svmlight_file(str(path), zero_based=False)
    back = load_dataset(path)
    np.testing.assert_allclose(back.numeric_matrix(), X.toarray())
    assert [back.class_names[c] for c in back.y] == [str(int(v)) for v in y]


def test_libsvm_class_last_layout_of_paper_004(tmp_path):
    path = write(tmp_path, "votes.svm",
                 "1:y 2:n classLabel:democrat\n1:n 2:? classLabel:republican\n"
                 "1:y classLabel:democrat\n")
    ds = load_dataset(path)
    assert ds.target.name == "classLabel"
    assert ds.class_names == ("democrat", "republican") and ds.y.tolist() == [0, 1, 0]
    assert ds.attributes[0].categories == ("n", "y")
    assert ds.columns[0].tolist() == [1, 0, 1]
    # in a nominal column an absent index is missing, as is '?'
    assert ds.columns[1].tolist() == [0, MISSING, MISSING]


@pytest.mark.parametrize("text, line, what", [
    ("+1 1:0.5\n-1 2\n", 2, "index:value"),
    ("+1 1:0.5\n-1 x:1 y:2\n", 2, "integer index"),
    ("+1 1:0.5 1:3\n", 1, "twice"),
    ("1:3 2:4\n", 1, "no class label"),
])
def test_libsvm_errors_name_the_line(tmp_path, text, line, what):
    path = write(tmp_path, "bad.libsvm", text)
    with pytest.raises(DataError) as err:
        load_dataset(path)
    assert str(err.value).startswith(f"{path}:{line}: ") and what in str(err.value)


def test_nan_is_missing_and_inf_a_number(tmp_path):
    # one NaN or inf token used to turn the column nominal
    path = write(tmp_path, "t.libsvm", "+1 1:0.5 2:NaN\n-1 1:inf 2:3\n+1 1:nan\n")
    ds = load_dataset(path)
    assert [a.kind for a in ds.attributes] == ["numeric", "numeric"]
    np.testing.assert_array_equal(ds.numeric_matrix(),
                                  [[0.5, np.nan], [np.inf, 3.0], [np.nan, 0.0]])
