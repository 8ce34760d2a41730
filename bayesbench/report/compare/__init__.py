"""``bayesbench compare``: :func:`.inputs.compare_paths` reads result directories (or a CSV of
scores, :mod:`.score_csv`) and compares them; :func:`.compare_report.write_compare_report`
writes its page and figures."""

__all__ = ["inputs", "score_csv", "compare_report"]
