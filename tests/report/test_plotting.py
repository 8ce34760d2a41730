"""The shared figure machinery: optional matplotlib, fixed style and metadata."""
import subprocess
import sys
import textwrap

import pytest

from bayesbench.errors import ReportError
from bayesbench.report.figures.plotting import (FORMATS, SKIPPED_MESSAGE, check_figure_path, plotting_available,
                                        save_figure, styled_figure)


def _python(code: str, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120, env={**_base_env(), **env})


def _base_env():
    import os
    return {k: v for k, v in os.environ.items() if not k.startswith("MPL")}


def test_importing_the_figure_modules_does_not_import_matplotlib():
    # `bayesbench --help` and runs without figures must not pay matplotlib's import time.
    res = _python("""
        import sys
        import bayesbench.report.figures.plotting, bayesbench.report.figures.score_figures, bayesbench.report.figures.network
        import bayesbench.report.figures.cdplot, bayesbench.report.html
        print("matplotlib" in sys.modules)
    """)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "False"


def test_without_matplotlib_plotting_is_unavailable_and_drawing_says_how_to_install(tmp_path):
    # None in sys.modules makes both find_spec and import fail, as on an install without [plots].
    res = _python(f"""
        import sys
        sys.modules["matplotlib"] = None
        from bayesbench.errors import ReportError
        from bayesbench.report.figures.plotting import plotting_available
        from bayesbench.report.figures.network import plot_network
        from bayesbench.models.core.structure import Structure
        print(plotting_available())
        try:
            plot_network(Structure.naive(3), {str(tmp_path / "n.svg")!r})
        except ReportError as err:
            print(err)
    """)
    assert res.returncode == 0, res.stderr
    available, message = res.stdout.strip().splitlines()
    assert available == "False"
    assert message == 'cannot draw figures: matplotlib is not installed (pip install "bayesbench[plots]")'
    assert not (tmp_path / "n.svg").exists()


def test_plotting_available_here_and_skip_message_names_the_extra():
    assert plotting_available()  # matplotlib is in the [test] extra
    assert "bayesbench[plots]" in SKIPPED_MESSAGE and SKIPPED_MESSAGE.startswith("figures skipped")


def test_figure_path_suffixes():
    assert FORMATS == (".png", ".svg", ".pdf")
    assert check_figure_path("a/b.SVG").name == "b.SVG"
    with pytest.raises(ReportError, match=r"x\.jpg: a figure is written as .png, .svg or .pdf"):
        check_figure_path("x.jpg")


def _png_text_keys(data: bytes) -> list[bytes]:
    # PNG chunks: 4-byte length, 4-byte type, data, 4-byte CRC (PNG specification, section 5.3).
    keys, pos = [], 8
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        if kind in (b"tEXt", b"iTXt", b"zTXt"):
            keys.append(data[pos + 8:pos + 8 + length].split(b"\0", 1)[0])
        pos += 12 + length
    return keys


def test_saved_files_carry_no_date_and_no_version(tmp_path):
    import matplotlib
    for suffix in FORMATS:
        with styled_figure(2, 1) as fig:
            fig.add_subplot().plot([0, 1], [1, 0])
            path = save_figure(fig, tmp_path / f"f{suffix}")
        data = path.read_bytes()
        assert matplotlib.__version__.encode() not in data, suffix
        if suffix == ".png":
            assert b"Software" not in _png_text_keys(data)
        if suffix == ".svg":
            assert b"<dc:date>" not in data
        if suffix == ".pdf":
            assert b"/CreationDate" not in data and b"/Producer" not in data


def test_the_users_matplotlibrc_does_not_change_the_figure(tmp_path):
    # The style is matplotlib's default whatever the user configured: a figure drawn under a
    # matplotlibrc with thick lines and big text has the bytes of one drawn without it.
    rc = tmp_path / "rc"
    rc.mkdir()
    (rc / "matplotlibrc").write_text("lines.linewidth: 6\nfont.size: 22\naxes.facecolor: yellow\n")
    code = """
        from bayesbench.report.figures.plotting import save_figure, styled_figure
        with styled_figure(2, 1.5) as fig:
            ax = fig.add_subplot()
            ax.plot([0, 1, 2], [1, 0, 2])
            ax.set_title("t")
            save_figure(fig, {out!r})
    """
    plain = _python(code.format(out=str(tmp_path / "plain.svg")))
    styled = _python(code.format(out=str(tmp_path / "styled.svg")), MATPLOTLIBRC=str(rc))
    assert plain.returncode == 0 and styled.returncode == 0, plain.stderr + styled.stderr
    assert (tmp_path / "plain.svg").read_bytes() == (tmp_path / "styled.svg").read_bytes()


def test_a_run_without_matplotlib_claims_no_figures(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text("name: nofig\ndatasets: [iris]\ncv: {folds: 2}\nclassifiers: [nb]\n")
    res = _python(f"""
        import sys
        sys.modules["matplotlib"] = None
        from bayesbench.cli import main
        sys.argv = ["bayesbench", "run", {str(config)!r}, "-o", {str(tmp_path / "run")!r},
                    "-j", "1"]
        main()
    """)
    assert res.returncode == 0, res.stderr
    assert SKIPPED_MESSAGE in res.stderr
    assert "figures in" not in res.stdout and "everything on one page" in res.stdout
    assert not (tmp_path / "run" / "figures").exists()
