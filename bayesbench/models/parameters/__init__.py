"""Parameter learning beyond additive smoothing: attribute weightings (AWNB, MANB, WANBIA)
and the decision trees AWNB reads its weights from. Imports only :mod:`..core`."""
