"""Preprocessing fitted on training data: imputation, discretization, attribute noise."""
from .discretize import Discretizer
from .impute import Imputer
from .noise import shuffle_attributes

__all__ = ["Discretizer", "Imputer", "shuffle_attributes"]
