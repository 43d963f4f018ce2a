"""Notebooks 01-05, English and Chinese, as a reader sees them: executed, rendered to HTML, opened in
Chromium at 1280 px.

- nothing is wider than the 1280 px window, and no output is cut off inside a scrolling box;
- every chart (``img`` in an output) has loaded;
- screenshots of each notebook's opening and of a chart with Chinese labels go to ``build/screenshots/``;
  of the Chinese ones also their first reading after a table and their first self-check verdict.

Debian's Chromium (``/usr/bin/chromium``) is driven through ``playwright`` with every network request
blocked, so the pages are judged as they render offline. Without the browser the tests skip (fail on CI).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from browser_support import headless_chromium

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
SCREENSHOTS = ROOT / "build" / "screenshots"
WIDTH = 1280
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("0[1-5]_*.ipynb")) + sorted((NOTEBOOK_DIR / "zh").glob("0[1-5]_*.ipynb"))
#: notebook -> the Chinese words of a chart title (the chart's cell spells them, in both editions), for the
#: screenshot of that chart.
CJK_CHARTS = {"01_unit_of_evaluation.ipynb": "同一次检索，三种口径",
              "02_recall_vs_hit.ipynb": "每题的 Recall@3 与 Hit@3"}

_spec = importlib.util.spec_from_file_location("build_html", ROOT / "tools" / "build_html.py")
build_html = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_html)

#: JavaScript: outputs whose content is wider than their box, and the page's own width.
_MEASURE = """() => {
  const cut = [];
  for (const el of document.querySelectorAll('.jp-OutputArea-output, .jp-RenderedHTMLCommon table')) {
    if (el.scrollWidth > el.clientWidth + 1) cut.push(el.innerText.slice(0, 60));
  }
  const images = [...document.querySelectorAll('.jp-OutputArea-output img')];
  return {page: document.documentElement.scrollWidth, cut: cut,
          images: images.length, broken: images.filter(i => !i.complete || i.naturalWidth === 0).length};
}"""


@pytest.fixture(scope="module")
def browser():
    with headless_chromium() as chromium:
        yield chromium


#: JavaScript: the index of the first reading (a markdown cell with Chinese in it right after a cell that
#: shows a table) and of the first cell with a self-check verdict (a line starting with ✓, ≈, ✗ or ○).
_CHINESE_OUTPUTS = """() => {
  const cells = [...document.querySelectorAll('.jp-Cell')];
  const reading = cells.findIndex((c, i) => i > 0 && c.classList.contains('jp-MarkdownCell')
    && cells[i - 1].querySelector('.jp-OutputArea-output table') !== null
    && /[\u4e00-\u9fff]/.test(c.textContent));
  const verdict = cells.findIndex(c => [...c.querySelectorAll('.jp-OutputArea-output pre')]
    .some(o => /^[✓≈✗○] .*[\u4e00-\u9fff]/m.test(o.textContent)));
  return {reading, verdict};
}"""


#: Chinese notebooks whose first table is followed by its reading (a markdown cell).
WITH_READINGS = {"03_mrr.ipynb", "04_ndcg.ipynb"}


def _screenshot_chinese_outputs(page, stem: str, name: str) -> None:
    """Screenshots of a Chinese notebook's first reading after a table and first self-check verdict."""
    found = page.evaluate(_CHINESE_OUTPUTS)
    assert found["verdict"] >= 0, f"{stem}: no self-check verdict in Chinese among the outputs"
    assert found["reading"] >= 0 or name not in WITH_READINGS, f"{stem}: no reading in Chinese"
    for what in [w for w in ("reading", "verdict") if found[w] >= 0]:
        cell = page.locator(".jp-Cell").nth(found[what])
        cell.scroll_into_view_if_needed()
        cell.screenshot(path=str(SCREENSHOTS / f"{what}_{stem}.png"))


@pytest.mark.browser
@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.relative_to(NOTEBOOK_DIR).as_posix())
def test_notebook_page_fits_1280_px_and_shows_its_charts(path, browser, tmp_path, executed):
    page_file = tmp_path / path.with_suffix(".html").name
    page_file.write_text(build_html.to_html(executed(path)), encoding="utf-8")
    context = browser.new_context(viewport={"width": WIDTH, "height": 900})
    try:
        context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
                      else route.abort())
        page = context.new_page()
        page.goto(page_file.as_uri(), wait_until="load")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        chinese = path.parent.name == "zh"
        stem = f"zh_{path.stem}" if chinese else path.stem
        page.screenshot(path=str(SCREENSHOTS / f"opening_{stem}.png"))
        if chinese:
            _screenshot_chinese_outputs(page, stem, path.name)
        measured = page.evaluate(_MEASURE)
        if path.name in CJK_CHARTS:
            index = page.evaluate(
                "phrase => [...document.querySelectorAll('.jp-Cell')].findIndex("
                "c => c.querySelector('img') && c.textContent.includes(phrase))",
                CJK_CHARTS[path.name],
            )
            assert index >= 0, f"{path.name}: no chart cell with the title {CJK_CHARTS[path.name]!r}"
            chart = page.locator(".jp-Cell").nth(index)
            chart.scroll_into_view_if_needed()
            chart.screenshot(path=str(SCREENSHOTS / f"chart_cjk_{stem}.png"))
    finally:
        context.close()
    assert measured["page"] <= WIDTH, f"{path.name}: the page is {measured['page']} px wide at {WIDTH} px"
    assert not measured["cut"], f"{path.name}: outputs cut off inside a scrolling box: {measured['cut']}"
    assert measured["broken"] == 0, f"{path.name}: {measured['broken']} of {measured['images']} charts failed"
