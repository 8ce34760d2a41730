"""Learners defined by a search over structures: selective learners driven by independence
tests (STAN, FFSS), wrapper searches (FSS, BSEJ, ASB), hill climbing (TAN-HC, kDB-HC, FSSJ),
and the inner cross-validation that scores their candidates; Weka's BayesNet (a network over
the class and the attributes searched by local scores: bayesnet, network_search,
local_scores, family_counts)."""

__all__ = ["bayesnet", "family_counts", "hill_climbing", "inner_cv", "local_scores",
           "network_search", "selective", "wrapper"]
