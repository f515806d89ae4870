"""Figures and reports from Python: ``Result.plot(ax=..., style=...)`` in the CLI's style,
``microagg.report`` making the CLI's table and figures, progress on stderr when asked."""

import pathlib
import subprocess

import pytest

import microagg

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SUITE = """name = "py-report"
instances = ["gauss:n=60,d=2,clusters=3,seed=1"]
k = [3]
seeds = { base = 1, replicates = 2 }
bounds = ["nn"]
max_steps = 300
trace = true
[[pipeline]]
method = "mdav"
[[pipeline]]
method = "mdav+ils"
"""


def small_run():
    return microagg.run("gauss:n=200,d=2,clusters=4,seed=1", k=3, method="mdav+ils", max_steps=300, progress=False)


def test_plot_draws_into_the_given_axes_on_a_log_time_axis_without_a_title():
    r = small_run()
    fig, ax = plt.subplots(figsize=(3.5, 2.6))
    out = r.plot(ax=ax, style="one-column")
    assert out is ax
    assert ax.get_xscale() == "log"
    assert ax.get_title() == ""
    st = microagg._figures.style("one-column")
    widths = {line.get_linewidth() for line in ax.get_lines() if line.get_linestyle() != "None"}
    assert widths == {st["line_pt"]}, widths
    # The legend sits below the axes, so it covers neither the bound line nor the curve.
    fig.canvas.draw()
    legend = ax.get_legend().get_window_extent()
    assert legend.y1 <= ax.get_window_extent().y0
    plt.close(fig)


def test_plot_styles_set_the_figure_width_and_refuse_unknown_names():
    r = small_run()
    ax = r.plot(style="two-columns")
    assert ax.figure.get_size_inches()[0] == pytest.approx(7.16)
    plt.close(ax.figure)
    with pytest.raises(microagg.UsageError, match="two-columns"):
        r.plot(style="poster")


def test_report_makes_the_clis_table_and_figures(cli, tmp_path):
    suite = tmp_path / "s.toml"
    suite.write_text(SUITE)
    df = microagg.experiment(suite, out=tmp_path / "runs", progress=False)
    py = microagg.report(df, out=tmp_path / "py")
    cli_out = subprocess.run(
        [str(cli), "report", str(tmp_path / "runs")], capture_output=True, text=True, check=True
    )
    assert py["table"] == cli_out.stdout
    assert "## Wilcoxon signed-rank tests" in py["table"]
    names = sorted(pathlib.Path(f).name for f in py["figures"])
    assert names == sorted(p.name for p in (tmp_path / "runs" / "figures").iterdir())
    for name in names:
        if name.endswith(".svg"):
            a = (tmp_path / "py" / "figures" / name).read_bytes()
            b = (tmp_path / "runs" / "figures" / name).read_bytes()
            assert a == b, name
    # From the folder, with columns and the two-column preset.
    r = microagg.report(tmp_path / "runs", columns=["pipeline", "best_il"], style="two-columns")
    assert r["table"].splitlines()[0].split("|")[1].strip() == "pipeline"
    with pytest.raises(microagg.UsageError, match="available: instance,n,k"):
        microagg.report(tmp_path / "runs", columns=["nope"])


def test_progress_goes_to_stderr_only_when_asked(tmp_path):
    code = (
        "import microagg; microagg.run('gauss:n=200,d=2,clusters=4,seed=1', k=3, "
        "method='mdav+ils', max_steps=200, bound='nn', progress={})"
    )
    import sys

    def stderr(flag):
        return subprocess.run([sys.executable, "-c", code.format(flag)], capture_output=True, text=True, check=True).stderr

    shown = stderr("True")
    assert "run mdav+ils:" in shown and "best IL" in shown, shown
    assert stderr("None") == ""  # stderr is a pipe here, not a terminal
    assert stderr("False") == ""
