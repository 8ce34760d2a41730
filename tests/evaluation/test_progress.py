"""Progress: a bar with counts and ETA on a terminal, one line per data set elsewhere."""
import io
import re

from bayesbench.evaluation.progress import Progress


def test_terminal_bar_counts_and_eta():
    out = io.StringIO()
    p = Progress({"a": 4, "b": 4}, {"a": 2}, stream=out, tty=True)
    p.update("a", 2)
    p.update("b", 1, errors=1)
    p.close()
    frames = out.getvalue().split("\r")[1:]
    assert re.search(r"\] 4/8 tasks, .* ETA ", frames[0])
    assert re.search(r"\] 5/8 tasks, ", frames[1])
    assert frames[1].count("#") == 30 * 5 // 8
    assert out.getvalue().endswith("\n")


def test_log_gets_one_line_per_finished_data_set():
    out = io.StringIO()
    p = Progress({"a": 2, "b": 3}, {}, stream=out, tty=False)
    for name, errors in (("a", 0), ("b", 1), ("a", 0), ("b", 0), ("b", 0)):
        p.update(name, 1, errors=errors)
    p.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("a: 2 tasks done (3/5 overall")
    assert lines[1].startswith("b: 3 tasks done, 1 failed (5/5 overall")


def test_quiet_prints_nothing():
    out = io.StringIO()
    p = Progress({"a": 1}, {}, stream=out, tty=True, quiet=True)
    p.update("a", 1)
    p.close()
    assert out.getvalue() == ""
