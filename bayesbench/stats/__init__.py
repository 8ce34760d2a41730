"""Statistical tests for comparing classifiers.

Over the folds of one data set (:mod:`~bayesbench.stats.fold_tests`): the paired
t-test, Nadeau and Bengio's corrected resampled t-test, the unpaired t-test,
and :func:`fold_tests`, which runs any of :data:`FOLD_TESTS` (the Wilcoxon test
included) on many pairs at once. Over several data sets
(:mod:`~bayesbench.stats.multiple`, after Demšar 2006): ranks, Friedman and
Iman-Davenport, Nemenyi, Holm and Bonferroni-Dunn against a control, the
Wilcoxon signed-rank test (also usable over folds), the sign test, and
win/tie/loss counts. Scores closer than :data:`TIE_DECIMALS` decimals tie
everywhere (:func:`tie_safe`). Every test is a pure function returning a small
frozen dataclass.
"""
from .fold_tests import (DEFAULT_FOLD_TEST, FOLD_TESTS, FoldTest, FoldTestsResult, TTestResult, corrected_ttest, fold_tests,
                    paired_ttest, unpaired_ttest)
from .multiple import (TIE_DECIMALS, AdjustedResult, ControlResult, FriedmanResult, NemenyiResult,
                       SignTestResult, WilcoxonResult, WinTieLoss, bonferroni,
                       bonferroni_dunn_q, cd_groups, control_ztest, critical_difference, friedman,
                       friedman_exact_pvalue, holm,
                       nemenyi, nemenyi_q, rank_scores, sign_test, tie_safe, wilcoxon,
                       wilcoxon_critical_value, wilcoxon_rows, win_tie_loss)

__all__ = [
    "FOLD_TESTS", "DEFAULT_FOLD_TEST", "FoldTest", "TTestResult", "paired_ttest", "corrected_ttest", "unpaired_ttest",
    "FoldTestsResult", "fold_tests",
    "TIE_DECIMALS", "tie_safe", "rank_scores", "FriedmanResult", "friedman", "friedman_exact_pvalue",
    "nemenyi_q", "bonferroni_dunn_q", "critical_difference", "NemenyiResult", "nemenyi", "cd_groups", "ControlResult",
    "control_ztest", "AdjustedResult", "holm", "bonferroni", "WilcoxonResult", "wilcoxon", "wilcoxon_rows",
    "wilcoxon_critical_value", "SignTestResult", "sign_test", "WinTieLoss", "win_tie_loss",
]

# Bayesian tests with a region of practical equivalence (after Benavoli et al. 2017).
from .bayesian import (CorrelatedTTestResult, CorrelatedTTestRows, SignedRankResult,  # noqa: E402
                       bayesian_correlated_ttest, bayesian_signed_rank, correlated_ttest_rows)

__all__ += ["CorrelatedTTestResult", "bayesian_correlated_ttest", "SignedRankResult",
            "bayesian_signed_rank", "CorrelatedTTestRows", "correlated_ttest_rows"]

# Effect sizes to report beside the significance marks.
from .effect_size import (MeanDifferenceResult, MeanDifferenceRows, cohens_dz,  # noqa: E402
                          mean_difference_ci, mean_difference_rows, rank_biserial)

__all__ += ["MeanDifferenceResult", "mean_difference_ci", "cohens_dz", "rank_biserial",
            "MeanDifferenceRows", "mean_difference_rows"]

# Agreement of predictions with the truth beyond chance.
from .agreement import KAPPA_WEIGHTS, cohen_kappa  # noqa: E402

__all__ += ["KAPPA_WEIGHTS", "cohen_kappa"]

# Every pair of classifiers, not only each against a baseline.
from .pairwise import PairwiseResult, nemenyi_pairs, nemenyi_pairwise, wilcoxon_pairwise  # noqa: E402

__all__ += ["PairwiseResult", "nemenyi_pairwise", "nemenyi_pairs", "wilcoxon_pairwise"]
