"""The parts of a page an analyst opens (tabs, boxes, pages of a long list), bound to the URL
so a link reopens the same part, and run only when open: a page computes only what it shows."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import streamlit as st

from components.url_binding import BIND, warn_unknown

def pager(pages: int, *, key: str) -> int:
    """Server-side paging: the page number lives in the URL like any filter."""
    # persist_state: the page survives a visit to another tab (the game detail) and back
    return int(st.pagination(max(1, pages), key=key, bind=BIND, width="stretch", persist_state="page"))


def tabs(labels: Sequence[str], *, key: str, default: str | None = None) -> dict[str, Any]:
    """URL-bound tabs (``?<key>=<label>``); only the open one's ``.open`` is True, so a page
    renders (and asks the API for) what the analyst looks at, not every tab."""
    warn_unknown(key, labels, "Tab", default or labels[0])
    containers = st.tabs(list(labels), key=key, bind=BIND, default=default)
    return dict(zip(labels, containers, strict=True))


# A tab strip wider than the screen (Forecasts' seven tabs on a phone) scrolls sideways, and opened
# from a link that chose a tab far along it, it showed its first tabs and not the chosen one. Once
# per browser page: whenever a strip's chosen tab changes (a page drawn, a link followed, a click),
# the strip scrolls just far enough to show it whole; a strip the analyst scrolled stays put until then.
CHOSEN_TAB_IN_VIEW: Final = """<script>
if (!window.sportsChosenTabInView) {
  window.sportsChosenTabInView = true;
  const strip = (tab, list) => {
    for (let e = tab.parentElement; e; e = e.parentElement) {
      if (e.scrollWidth > e.clientWidth && /auto|scroll/.test(getComputedStyle(e).overflowX)) return e;
      if (e === list.parentElement) return null;
    }
    return null;
  };
  const show = () => document.querySelectorAll('[role="tablist"]').forEach((list) => {
    const tab = list.querySelector('[role="tab"][aria-selected="true"]');
    if (!tab || list.dataset.shownTab === tab.id + tab.textContent) return;
    const box = strip(tab, list);
    if (!box) return;
    list.dataset.shownTab = tab.id + tab.textContent;
    const t = tab.getBoundingClientRect(), b = box.getBoundingClientRect();
    const room = Math.min(32, Math.max(0, (b.width - t.width) / 2));  // clear of the strip's arrows
    if (t.right > b.right - room) box.scrollLeft += t.right - b.right + room;
    else if (t.left < b.left + room) box.scrollLeft -= b.left + room - t.left;
  });
  let queued = false;
  new MutationObserver(() => {
    if (!queued) { queued = true; requestAnimationFrame(() => { queued = false; show(); }); }
  }).observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ["aria-selected"]});
  show();
}
</script>"""


def chosen_tab_in_view() -> None:
    """Keep each tab strip's chosen tab in view (app.py, once a run, after the page)."""
    st.html(CHOSEN_TAB_IN_VIEW, unsafe_allow_javascript=True, width="content")


def disclosure(label: str, *, key: str, icon: str | None = None) -> Any:
    """A URL-bound expander (``?<key>=true`` while open), closed on arrival; its ``.open`` says
    whether to run its content. It holds the records behind a chart, one click below it: a view
    opens on charts or on grids, never both, because the second kind's code and drawing land
    before the first is shown (bench/dashboard.py, Players: a grid under the chart took its first
    chart from 1.25x to 1.43-1.50x the one-chart page; the grid behind this box, 1.27x)."""
    return st.expander(label, key=key, bind=BIND, icon=icon)


def is_open(key: str) -> bool:
    """Whether the ``disclosure`` under ``key`` will be open in this run (before it is drawn):
    its state in the session, else in the link."""
    if key in st.session_state:
        return bool(st.session_state[key])
    given = st.query_params.get_all(key)
    return bool(given) and given[-1].lower() == "true"


CHART_BELOW: Final = "chart"  # a link's name for the chart box of the page it opens (``chart_below``)
PAGE_KEY: Final = "_page"  # session state: the page this run shows (app.py), as its URL names it


def chart_key() -> str:
    """The chart box's name on this page (``chart_games``): one name a page. A name shared by
    every page kept the box open in the session, so a box opened on one page opened itself on
    the next; the session cannot tell a click in the sidebar from a link pasted into the tab."""
    return f"{CHART_BELOW}_{st.session_state.get(PAGE_KEY) or 'overview'}"


def chart_below(label: str, *, icon: str = ":material/bar_chart:") -> Any:
    """A table-led view's chart, a click below its table (``disclosure``): one such box a page.
    A link's ``chart=true`` (the name every page's box answered to before each had its own)
    opens the box of the page it lands on, then gives way to that page's own name."""
    key = chart_key()
    given = st.query_params.get_all(CHART_BELOW)
    if given:
        opened = given[-1].lower() == "true"
        st.session_state[key] = opened
        del st.query_params[CHART_BELOW]
        if opened:  # the address keeps the box open under the page's own name, for the next link
            st.query_params[key] = "true"
    return disclosure(label, key=key, icon=icon)
