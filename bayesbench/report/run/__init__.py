"""The end of ``bayesbench run``: :func:`.finalize.finalize_run` writes the summary tables
(:mod:`.summary`, :mod:`.summary_tables`), the comparison (:mod:`.comparison`), the figures and
report.html of a run; :func:`.comparison.write_arm_comparison` compares the arms of a config.
The records a table reads are chosen and ordered by :mod:`.records`."""

__all__ = ["finalize", "summary", "summary_tables", "comparison", "records", "protocol",
           "pooled", "learning_curves", "decomposition", "run_warnings"]
