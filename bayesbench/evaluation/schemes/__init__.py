"""The cross-validation schemes, by name: one table, :data:`SCHEMES` (each a
:class:`~.scheme.CVScheme` in its own module)."""
from __future__ import annotations

from types import MappingProxyType

from .bootstrap import ESTIMATES, Bootstrap
from .holdout import Holdout
from .kfold import FOLD_SIZES, KFold
from .loo import LeaveOneOut
from .resubstitution import Resubstitution
from .scheme import CVScheme, Setting, Split

#: Every scheme, by name (``CVSpec.kind``); read through this view, so a test may add one.
_TABLE = {s.name: s for s in (KFold, Holdout, Resubstitution, LeaveOneOut, Bootstrap)}
SCHEMES = MappingProxyType(_TABLE)
#: The scheme of a ``cv`` mapping that names none of the others' selectors.
DEFAULT_SCHEME = KFold.name

__all__ = ["SCHEMES", "DEFAULT_SCHEME", "FOLD_SIZES", "ESTIMATES", "CVScheme", "Setting", "Split",
           "KFold", "Holdout", "Resubstitution", "LeaveOneOut", "Bootstrap"]
