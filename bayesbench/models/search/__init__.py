"""Learners defined by a search over structures: selective learners driven by independence
tests (STAN, FFSS), wrapper searches (FSS, BSEJ, ASB), hill climbing (TAN-HC, kDB-HC, FSSJ),
and the inner cross-validation that scores their candidates."""

__all__ = ["hill_climbing", "inner_cv", "selective", "wrapper"]
