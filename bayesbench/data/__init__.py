"""Data sets: the typed :class:`Dataset`, readers and writers (ARFF, CSV, libsvm), bundled data."""
from .dataset import MISSING, Attribute, Dataset
from .load import bundled_dir, find_dataset, load_dataset, locate_dataset
from .arff_format import write_arff

__all__ = ["MISSING", "Attribute", "Dataset", "load_dataset", "write_arff", "write_csv",
           "find_dataset", "bundled_dir", "locate_dataset"]


def __getattr__(name):
    if name == "write_csv":
        from .csv_format import write_csv
        return write_csv
    raise AttributeError(f"module 'bayesbench.data' has no attribute {name!r}")
