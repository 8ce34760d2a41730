"""``bayesbench check``: :func:`.against.check_run` holds a run against the table its paper
printed (:mod:`.published` reads and checks that table), and :mod:`.check_render` prints the
result as text, Markdown or JSON."""

__all__ = ["against", "published", "check_render"]
