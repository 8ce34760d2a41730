"""Preprocessing fitted on training data: imputation, discretization, attribute noise; the
discretizers also as scikit-learn transformers (:mod:`.transformers`)."""
from .discretize import Discretizer
from .impute import Imputer
from .noise import shuffle_attributes
from .transformers import (EqualFrequencyDiscretizer, EqualWidthDiscretizer, FDDiscretizer,
                           MDLDiscretizer, PKIDiscretizer, WPKIDiscretizer)

__all__ = ["Discretizer", "Imputer", "shuffle_attributes", "MDLDiscretizer", "FDDiscretizer",
           "EqualWidthDiscretizer", "EqualFrequencyDiscretizer", "PKIDiscretizer",
           "WPKIDiscretizer"]
