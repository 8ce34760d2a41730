"""Panels without axes: tick labels as few decimals as tell the ticks apart, and data drawn
where the panel's frame and ticks say it is."""
import numpy as np

from bayesbench.report.figures.panels import Labels, Panel, draw_panel, tick_labels
from bayesbench.report.figures.plotting import styled_figure


def test_tick_labels_use_as_few_decimals_as_tell_the_ticks_apart():
    assert tick_labels([0.0, 0.2, 0.4]) == ["0.0", "0.2", "0.4"]
    assert tick_labels([0.0, 0.25, 0.5]) == ["0.00", "0.25", "0.50"]
    assert tick_labels([0.0, 5.0, 10.0]) == ["0", "5", "10"]


def test_data_lands_on_the_ticks_the_panel_draws():
    panel = Panel(1.0, 0.5, 2.0, 4.0, (-1.0, 3.0), (10.0, 20.0))
    with styled_figure(4.0, 5.0) as fig:
        data = draw_panel(fig, panel, [-1.0, 1.0, 3.0], [10.0, 15.0, 20.0],
                          Labels("t", "x", "y"))
        # in inches: the corners of the frame, and the middle ticks
        corners = data.transform([(-1.0, 10.0), (3.0, 20.0), (1.0, 15.0)]) / fig.dpi
        np.testing.assert_allclose(corners, [(1.0, 0.5), (3.0, 4.5), (2.0, 2.5)])
        texts = {t.get_text(): t.get_position() for t in fig.texts}
        assert texts["1"] == (panel.x(1.0), panel.bottom - 2 * 3.5 / 72)
        assert texts["15"] == (panel.left - 2 * 3.5 / 72, 2.5)
