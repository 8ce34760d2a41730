"""Data sets: the typed :class:`Dataset`, readers and writers (ARFF, CSV, libsvm), finding a
data set by name, and the catalog of what the names resolve to; and the bounded reading of
every YAML file (:mod:`.yaml_file`: configs, a result directory's ``config.yaml``, published
tables)."""
from .dataset import MISSING, Attribute, Dataset
from .load import (DATA_ENV, bundled_dir, checkout_dir, find_dataset, load_dataset,
                   locate_dataset, search_dirs, search_path)
from .arff_format import write_arff
from .catalog import describe_dataset, list_datasets

__all__ = ["MISSING", "Attribute", "Dataset", "load_dataset", "write_arff", "write_csv",
           "find_dataset", "bundled_dir", "checkout_dir", "locate_dataset", "search_path",
           "search_dirs", "DATA_ENV", "list_datasets", "describe_dataset"]


def __getattr__(name):
    if name == "write_csv":
        from .csv_format import write_csv
        return write_csv
    raise AttributeError(f"module 'bayesbench.data' has no attribute {name!r}")
