"""The static RRF k explorer (``make explorer``): the built folder, and the page in headless Chromium.

The page is built into a temporary folder with ``tools/build_explorer.py`` and opened from disk
(``file://``) in Debian's Chromium through playwright, every request that is not a file blocked and
recorded. Its arithmetic, ``window.raglab.fuse`` and ``window.raglab.leadChanges``, is checked against
``ragmath.rrf`` on a few hundred seeded random list sets; the rendered page is read back with the
keyboard driving it. Expected values come from ``ragmath`` or from RRF = Σ 1/(k + rank) in exact
fractions, never from the page. Screenshots go to ``build/screenshots/explorer_page_*.png``.

Without Chromium (or playwright) the browser tests skip with the reason, except on CI (``CI=true``),
where they fail, as in tests/test_browser.py.
"""

from __future__ import annotations

import importlib.util
import json
import math
import random
import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from browser_support import headless_chromium

import ragmath
from ragmath.lab.messages import CATALOGUE, message, use_language
from ragmath.lab.notebook.widgets import K_MAX, MAX_IDS, check_size, parse_list
from ragmath.ranking import tie_rule_order

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "build" / "screenshots"
ARTICLE = {"BM25": ["4.2", "6.1", "3.5"], "vector": ["5.3", "6.1", "4.2"]}

_spec = importlib.util.spec_from_file_location("build_explorer", ROOT / "tools" / "build_explorer.py")
build_explorer = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_explorer)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The page built as `make explorer` builds it, in a temporary folder; returns index.html."""
    return build_explorer.build(tmp_path_factory.mktemp("explorer"))


def exact_scores(lists: dict[str, list[str]], k: int, window: int | None = None) -> dict[str, Fraction]:
    """RRF = Σ 1/(k + rank) over the lists holding the item (each cut to its top ``window``), exactly."""
    scores: dict[str, Fraction] = {}
    for ids in lists.values():
        for rank, item in enumerate(ids[:window], start=1):
            scores[item] = scores.get(item, Fraction(0)) + Fraction(1, k + rank)
    return scores


def expected_rows(lists: dict[str, list[str]], k: int) -> list[list[str]]:
    """[ID, score with 4 decimals] best first: score descending, then ID (Python compares code points)."""
    scores = exact_scores(lists, k)
    return [[item, f"{float(scores[item]):.4f}"] for item in sorted(scores, key=lambda i: (-scores[i], i))]


def test_the_hand_worked_rows_match_the_article():
    assert expected_rows(ARTICLE, 1) == [["4.2", "0.7500"], ["6.1", "0.6667"], ["5.3", "0.5000"],
                                         ["3.5", "0.2500"]]


# ------------------------------------------------------------------------------ the built folder
def test_the_built_folder_is_small_and_fetches_nothing(built):
    folder = built.parent
    files = {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir()}
    assert set(files) == {"index.html", "explorer.js", "explorer.css", "page-data.js"}
    assert sum(p.stat().st_size for p in folder.iterdir()) < 300_000
    page = files["index.html"]
    scripts = re.findall(r"<script\b([^>]*)>", page)
    assert [re.search(r'src="([^"]+)"', s).group(1) for s in scripts] == ["page-data.js", "explorer.js"]
    assert "module" not in " ".join(scripts)
    assert re.findall(r'href="([^"]+)"', page) == ["explorer.css"]
    # The one URL in the files is the SVG namespace, a name that is never fetched.
    urls = [u for text in files.values() for u in re.findall(r"https?://[^\s\"'`)]+", text)]
    assert urls == ["http://www.w3.org/2000/svg"], urls
    code = files["explorer.js"]
    for forbidden in ("fetch(", "import(", "XMLHttpRequest", "innerHTML", "outerHTML", "insertAdjacentHTML",
                      "eval(", "document.write"):
        assert forbidden not in code, forbidden


def _page_data(built: Path) -> dict:
    text = (built.parent / "page-data.js").read_text(encoding="utf-8")
    return json.loads(text.split("window.RAGLAB_PAGE = ", 1)[1].rstrip().rstrip(";"))


def test_the_page_carries_every_explorer_message_in_both_languages(built):
    data = _page_data(built)
    keys = ({key for key in CATALOGUE if key.startswith("explorer.")} | {"common.list_separator"}
            | {key for key in CATALOGUE if key.startswith("lists.")})
    for language in ("en", "zh"):
        assert data["messages"][language] == {key: CATALOGUE[key][language] for key in keys}
    assert data["settings"]["maxIds"] == MAX_IDS and data["settings"]["kMax"] == K_MAX
    assert dict(data["settings"]["articleLists"]) == ARTICLE


def test_every_key_the_page_asks_for_is_in_the_catalogue():
    code = (ROOT / "explorer" / "explorer.js").read_text(encoding="utf-8")
    page = (ROOT / "explorer" / "index.html").read_text(encoding="utf-8")
    asked = {*re.findall(r'message\("([\w.]+)"', code), *re.findall(r'data-msg(?:-label)?="([\w.]+)"', page)}
    assert len(asked) >= 30
    assert sorted(asked - set(CATALOGUE)) == []


def test_a_message_format_the_page_cannot_fill_stops_the_build(monkeypatch):
    monkeypatch.setitem(CATALOGUE, "explorer.page.zz_test", {"en": "{n:>5}", "zh": "{n:>5}"})
    with pytest.raises(ValueError, match="explorer.page.zz_test"):
        build_explorer.page_messages()


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_explorer_builds_the_folder_and_serves_it_on_localhost():
    def dry_run(*settings: str) -> str:
        done = subprocess.run(["make", "-n", "explorer", *settings], cwd=ROOT, capture_output=True, text=True,
                              timeout=60, check=True)
        return done.stdout

    default = dry_run()
    assert "tools/build_explorer.py --out build/explorer" in default
    assert "-m http.server 8866 --bind 127.0.0.1 --directory build/explorer" in default
    assert "-m http.server 9123 --bind 127.0.0.1" in dry_run("EXPLORER_PORT=9123")


# ------------------------------------------------------------------------------------ the browser
@pytest.fixture(scope="module")
def browser():
    with headless_chromium() as chromium:
        yield chromium


class OfflinePage:
    """A fresh browser context that loads files only: every other request is refused and recorded."""

    def __init__(self, browser, width: int = 1280, height: int = 800):
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.refused: list[str] = []
        self.errors: list[str] = []
        self.context.route("**/*", self._only_files)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def _only_files(self, route):
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            self.refused.append(route.request.url)
            route.abort()

    def open(self, index: Path, query: str = ""):
        self.page.goto(index.as_uri() + query)
        self.page.locator("body[data-ready]").wait_for(timeout=30_000)
        return self.page

    def close(self):
        self.context.close()
        assert self.refused == [], f"the page asked the network for {self.refused}"
        assert self.errors == [], self.errors


@pytest.fixture
def offline(browser):
    pages: list[OfflinePage] = []

    def make(**size) -> OfflinePage:
        pages.append(OfflinePage(browser, **size))
        return pages[-1]

    yield make
    for page in pages:
        page.close()


# ------------------------------------------------------------------------ parity with ragmath.rrf
# IDs chosen to make ties and orderings tricky: digits, spaces, CJK, markup, and characters on both
# sides of U+FFFF, where JavaScript's < (UTF-16 units) and Python's (code points) disagree.
ID_POOL = ["4.2", "6.1", "3.5", "5.3", "10", "9", "a", "B", "doc 7", "差旅费", "<b>x</b>", "$x^2$",
           "\uff5e", "\U0001f600", "\U00010348", "\ue000", "z\U0001f600", "z\uffff", "é", "e\u0301"]
LIST_NAMES = ["BM25", "vector", "L3", "向量", "dense"]


def _tie_lists(rng: random.Random) -> dict[str, list[str]]:
    """Two lists, one the other reversed: the items at ranks r and n+1-r tie at every k."""
    ids = rng.sample(ID_POOL, rng.randint(2, 10))
    lists = {"BM25": ids, "vector": ids[::-1]}
    if rng.random() < 0.5:
        lists["L3"] = rng.sample(ID_POOL, rng.randint(1, 4))
    return lists


def _random_lists(rng: random.Random) -> dict[str, list[str]]:
    names = LIST_NAMES[: rng.randint(1, len(LIST_NAMES))]
    return {name: rng.sample(ID_POOL, rng.randint(1, 12)) for name in names}


def _one_item_lists(rng: random.Random) -> dict[str, list[str]]:
    return {name: [rng.choice(ID_POOL)] for name in LIST_NAMES[: rng.randint(1, 4)]}


def _thousand_ids(rng: random.Random) -> dict[str, list[str]]:
    """1,000 distinct IDs over three lists (the page's cap), half of them beyond U+FFFF."""
    ids = [f"d{i}" if i % 2 else chr(0x1F000 + i) + "x" for i in range(MAX_IDS)]
    first = ids[:]
    rng.shuffle(first)
    return {"BM25": first, "vector": first[::-1], "L3": rng.sample(ids, 300)}


def _crossing_lists(rng: random.Random) -> dict[str, list[str]]:
    """One item first in one or two lists, another a few places down in every list: at small k the
    first leads, at large k the second (Σ 1/(k + rank) weighs presence more as k grows)."""
    pool = rng.sample(ID_POOL, len(ID_POOL))
    early, everywhere, fillers = pool[0], pool[1], pool[2:]
    lists = {}
    for column, name in enumerate(LIST_NAMES[: rng.randint(3, 5)]):
        ranking = rng.sample(fillers, rng.randint(1, 8))
        ranking.insert(rng.randint(1, len(ranking)), everywhere)
        if column < rng.randint(1, 2):
            ranking.insert(0, early)
        lists[name] = ranking
    return lists


def lead_change_cases(seed: int = 28, count: int = 40) -> list[tuple[dict[str, list[str]], int | None]]:
    """(lists, window) for the lead-change test: crossing lists, and one set of 1,000 IDs."""
    rng = random.Random(seed)
    cases: list[tuple[dict[str, list[str]], int | None]] = [(_thousand_ids(rng), None)]
    for _ in range(count - 1):
        lists = _crossing_lists(rng)
        cases.append((lists, rng.choice([None, None, rng.randint(2, max(map(len, lists.values())))])))
    return cases


def parity_cases(seed: int = 28, count: int = 320) -> list[tuple[dict[str, list[str]], int, int | None]]:
    """(lists, k, window) for the parity test, from a seeded generator (the same cases every run)."""
    rng = random.Random(seed)
    makers = [_random_lists, _tie_lists, _one_item_lists, _random_lists, _tie_lists]
    cases = []
    for index in range(count):
        lists = _thousand_ids(rng) if index % 80 == 0 else makers[index % len(makers)](rng)
        k = rng.choice([1, 2, 3, rng.randint(1, 200), rng.randint(1, 200), rng.randint(201, 10**6)])
        longest = max(len(ids) for ids in lists.values())
        window = rng.choice([None, None, rng.randint(1, longest), rng.randint(1, longest + 3)])
        cases.append((lists, k, window))
    return cases


def ragmath_rows(lists, k, window) -> list[dict]:
    """The rows the page must give, from ragmath.rrf: order, ranks, scores; ties and places exactly."""
    table = ragmath.rrf(lists, k=k, window=window)
    rows = []
    for record in table.to_dict("records"):
        ranks = {n: None if math.isnan(record[f"rank[{n}]"]) else int(record[f"rank[{n}]"]) for n in lists}
        exact = sum((Fraction(1, k + r) for r in ranks.values() if r is not None), Fraction(0))
        rows.append({"id": record["id"], "score": record["rrf_score"], "ranks": ranks, "exact": exact})
    for i, row in enumerate(rows):
        row["tied"] = any(0 <= j < len(rows) and rows[j]["exact"] == row["exact"] for j in (i - 1, i + 1))
        row["place"] = rows[i - 1]["place"] if i and rows[i - 1]["exact"] == row["exact"] else i + 1
    return rows


def ragmath_lead_changes(lists, window) -> list[dict]:
    """Where the first row of ragmath.rrf changes, for integer k from 1 to 200."""
    leaders = [ragmath.rrf(lists, k=k, window=window)["id"].iloc[0] for k in range(1, K_MAX + 1)]
    return [{"k": k, "previous": leaders[k - 2], "leader": leaders[k - 1]}
            for k in range(2, K_MAX + 1) if leaders[k - 1] != leaders[k - 2]]


def test_the_cases_hold_ties_windows_one_item_lists_and_code_point_orders():
    cases = parity_cases()
    tied = [c for c in cases if any(r["tied"] for r in ragmath_rows(*c))]
    windows = [c for c in cases if c[2] is not None and c[2] < max(len(v) for v in c[0].values())]
    one_item = [c for c in cases if all(len(v) == 1 for v in c[0].values())]
    big = [c for c in cases if len({i for v in c[0].values() for i in v}) == MAX_IDS]

    def utf16_disagrees(case) -> bool:  # a tied group that UTF-16 order would sort differently
        rows = ragmath_rows(*case)
        groups = {}
        for row in rows:
            groups.setdefault(row["exact"], []).append(row["id"])
        return any(g != sorted(g, key=lambda s: s.encode("utf-16-be")) for g in groups.values())

    def ten_and_nine_tie(case) -> bool:  # "10" and "9" with equal scores: text order, not number order
        rows = ragmath_rows(*case)
        return any(a["exact"] == b["exact"] and {a["id"], b["id"]} == {"10", "9"} for a in rows for b in rows)

    assert len(cases) == 320
    assert len(tied) >= 80 and len(windows) >= 60 and len(one_item) >= 40 and len(big) == 4
    assert sum(map(utf16_disagrees, cases)) >= 10
    # The seeded cases never tie "10" with "9"; the hand-made TIE_CASES below do, and join them in
    # the parity test.
    assert all(ten_and_nine_tie((lists, k, None)) for lists in (TIE_CASES[0], TIE_CASES[2]) for k in (1, 60))


# Hand-made ties for the page's copy of the tie rule: every item alone at rank 1 of its own list (all
# tied), pairs tied at two levels, IDs that read as numbers ("10" before "9" and "2": text, not number).
TIE_CASES = [
    {"BM25": ["9", "10"], "vector": ["10", "9"]},
    {"BM25": ["9", "10", "2", "a"], "vector": ["a", "2", "10", "9"]},
    {f"L{i}": [item] for i, item in enumerate(["9", "10", "2", "100", "d9", "d10", "B", "a", "é", "e\u0301",
                                                "\ue000", "\uff5e", "\U0001f600", "差旅费", "09"])},
]


def python_tie_rule(lists: dict[str, list[str]], k: int) -> list[str]:
    """The IDs in the order of ragmath's one tie-rule function, on the exact fused scores."""
    scores = exact_scores(lists, k)
    ids = list(scores)
    exact = np.empty(len(ids), dtype=object)
    exact[:] = [scores[item] for item in ids]
    return [ids[i] for i in tie_rule_order(exact, pl.Series(ids, dtype=pl.String))]


def test_the_hand_made_ties_tie_and_order_as_text():
    assert python_tie_rule(TIE_CASES[0], 60) == ["10", "9"]
    assert python_tie_rule(TIE_CASES[1], 1) == ["9", "a", "10", "2"]  # 9 and a tie, then 10 and 2
    assert python_tie_rule(TIE_CASES[2], 60)[:6] == ["09", "10", "100", "2", "9", "B"]
    for lists in TIE_CASES:
        assert list(ragmath.rrf(lists, k=60)["id"]) == python_tie_rule(lists, 60)


@pytest.mark.browser
def test_the_pages_tie_rule_is_ragmaths_tie_rule_function(built, offline):
    """The page's JavaScript copy of the tie rule (explorer/explorer.js, compareIds) against
    ragmath.ranking.tie_rule_order, on equal scores: "10" vs "9", code points beyond U+FFFF."""
    page = offline().open(built)
    for lists in TIE_CASES:
        for k in (1, 60):
            got = page.evaluate("([lists, k]) => raglab.fuse(lists, k, null).map(r => [r.id, r.tied])",
                                [lists, k])
            assert [item for item, _ in got] == python_tie_rule(lists, k), (lists, k)
            assert any(tied for _, tied in got)


@pytest.mark.browser
def test_fuse_and_lead_changes_match_ragmath_rrf(built, offline):
    cases = parity_cases() + [(lists, k, None) for lists in TIE_CASES for k in (1, 60)]
    page = offline().open(built)
    results = page.evaluate(
        "cases => cases.map(([lists, k, window]) => raglab.fuse(lists, k, window))", cases)
    lead_cases = lead_change_cases()
    changes = page.evaluate("cases => cases.map(([lists, window]) => raglab.leadChanges(lists, window))",
                            lead_cases)
    compared_rows = 0
    for (lists, k, window), got in zip(cases, results, strict=True):
        want = ragmath_rows(lists, k, window)
        assert [r["id"] for r in got] == [r["id"] for r in want], (lists, k, window)
        for mine, theirs in zip(got, want, strict=True):
            assert abs(mine["score"] - theirs["score"]) <= 1e-12
            assert mine["fraction"] == str(theirs["exact"])
            assert (mine["tied"], mine["place"], mine["ranks"]) == (theirs["tied"], theirs["place"],
                                                                     theirs["ranks"])
        compared_rows += len(want)
    for (lists, window), got in zip(lead_cases, changes, strict=True):
        assert got == ragmath_lead_changes(lists, window), (lists, window)
    assert compared_rows > 5000 and sum(bool(c) for c in changes) >= 15
    print(f"parity: {len(cases)} list sets, {compared_rows} rows; lead changes over k = 1..{K_MAX} "
          f"for {len(lead_cases)} sets ({sum(map(len, changes))} changes)")


@pytest.mark.browser
def test_ties_beyond_u_ffff_follow_code_points_not_utf16_units(built, offline):
    page = offline().open(built)
    lists = {"BM25": ["\U0001f600", "\uff5e"], "vector": ["\uff5e", "\U0001f600"]}
    got = page.evaluate("lists => raglab.fuse(lists, 1, null).map(r => [r.id, r.place, r.tied])", lists)
    assert got == [["\uff5e", 1, True], ["\U0001f600", 1, True]]
    assert list(ragmath.rrf(lists, k=1)["id"]) == ["\uff5e", "\U0001f600"]
    assert page.evaluate("'\\u{1F600}' < '\\uFF5E'")  # what a plain < would have done


# ------------------------------------------------------------------------------- the page itself
def _table_rows(page, k: int) -> list[list[str]]:
    return page.evaluate(
        """k => Array.from(document.querySelectorAll(`.rrf-table[data-k="${k}"] tbody tr`))
                 .map(tr => [tr.dataset.id, tr.querySelector('.score').textContent])""", k)


def _texts(page, selector: str) -> list[str]:
    return page.evaluate("s => Array.from(document.querySelectorAll(s)).map(e => e.textContent)", selector)


def _headers(page) -> list[str]:
    return _texts(page, ".rrf-table thead th")


def _tab_to(page, element_id: str, presses: int = 25) -> None:
    """Press Tab until the element with this id has the focus (keyboard only, no clicks)."""
    for _ in range(presses):
        if page.evaluate("document.activeElement && document.activeElement.id") == element_id:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"#{element_id} never got the focus with Tab")


def _screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"explorer_page_{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


@pytest.mark.browser
def test_k_1_reads_4_2_at_0_7500_in_english_and_in_chinese(built, offline):
    page = offline().open(built)
    _tab_to(page, "k-range")
    page.keyboard.press("Home")
    page.locator('.rrf-table[data-k="1"]').wait_for()
    assert _table_rows(page, 1) == expected_rows(ARTICLE, 1)
    lead = page.locator("#lead").text_content()
    assert lead.startswith("At k = 1, 4.2 leads with 0.7500 (0.0833 ahead of 6.1)."), lead
    shot_en = _screenshot(page, "k1_en")
    page.keyboard.press("ArrowRight")
    page.locator('.rrf-table[data-k="2"]').wait_for()
    assert _table_rows(page, 2) == expected_rows(ARTICLE, 2)
    assert page.locator("#k-number").input_value() == "2"

    zh = offline().open(built, "?lang=zh")
    _tab_to(zh, "k-range")
    zh.keyboard.press("Home")
    zh.locator('.rrf-table[data-k="1"]').wait_for()
    assert _table_rows(zh, 1) == expected_rows(ARTICLE, 1)
    assert zh.locator("#lead").text_content().startswith("k = 1 时 4.2 领先，得分 0.7500")
    assert _headers(zh) == ["名次", "ID", "BM25 名次", "BM25：1/(k+名次)", "向量 名次",
                            "向量：1/(k+名次)", "融合得分", "领先下一名"]
    assert zh.locator("label[for=list-1]").text_content() == "向量"
    assert zh.evaluate("document.documentElement.lang") == "zh-CN"
    shot_zh = _screenshot(zh, "k1_zh")
    assert shot_en.stat().st_size > 20_000 and shot_zh.stat().st_size > 20_000


@pytest.mark.browser
def test_the_language_switch_keeps_k_and_the_lists(built, offline):
    page = offline().open(built)
    page.locator("#k-number").fill("7")
    page.keyboard.press("Enter")
    page.locator('.rrf-table[data-k="7"]').wait_for()
    page.locator("button[data-lang=zh]").click()
    assert _headers(page)[0] == "名次" and _table_rows(page, 7) == expected_rows(ARTICLE, 7)
    assert "向量 名次" in _headers(page)
    page.locator("button[data-lang=en]").click()
    assert _headers(page)[0] == "place" and "vector rank" in _headers(page)


@pytest.mark.browser
def test_the_keyboard_alone_adds_a_third_list_and_sets_the_window(built, offline):
    page = offline().open(built)
    _tab_to(page, "k-range")
    page.keyboard.press("End")
    page.locator('.rrf-table[data-k="200"]').wait_for()
    _tab_to(page, "add-list")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "list-2"
    page.keyboard.type("3.5, 9.9")
    page.keyboard.press("Enter")
    lists = {**ARTICLE, "L3": ["3.5", "9.9"]}
    page.locator('.rrf-table thead th:has-text("L3 rank")').wait_for()
    assert _table_rows(page, 200) == expected_rows(lists, 200)
    _tab_to(page, "window")
    page.keyboard.press("ArrowDown")  # from "all" to "top 1"
    page.locator('.rrf-table[data-window="1"]').wait_for()
    top_one = exact_scores(lists, 200, window=1)
    assert _table_rows(page, 200) == [[i, f"{float(s):.4f}"] for i, s in
                                      sorted(top_one.items(), key=lambda p: (-p[1], p[0]))]


@pytest.mark.browser
def test_bad_input_is_explained_as_text_in_the_notebooks_words(built, offline):
    page = offline().open(built)
    page.locator("#list-0").fill("4.2, 6.1, 4.2")
    page.locator("#list-0").press("Enter")
    with pytest.raises(ValueError) as duplicate:
        parse_list("4.2, 6.1, 4.2", name="BM25")
    assert page.locator("#error").text_content() == f"⚠ {duplicate.value}"
    assert page.locator(".rrf-table[data-error]").count() == 1 and page.locator("#chart svg").count() == 0

    too_many = {"BM25": [f"d{i}" for i in range(MAX_IDS + 1)], "vector": ARTICLE["vector"]}
    page.locator("#list-0").fill(", ".join(too_many["BM25"]))
    page.locator("#list-0").press("Enter")
    with pytest.raises(ValueError) as refused:
        check_size(too_many)
    assert page.locator("#error").text_content() == f"⚠ {refused.value}"

    page.locator("button[data-lang=zh]").click()
    use_language("zh")
    try:
        words = message("explorer.error.too_many_ids", distinct=MAX_IDS + 4, max_ids=MAX_IDS, k_min=1,
                        k_max=K_MAX)
    finally:
        use_language("en")
    assert page.locator("#error").text_content() == f"⚠ {words}"

    # at the cap exactly (vector adds 5.3, 6.1 and 4.2): every ID in the table
    page.locator("#list-0").fill(", ".join(too_many["BM25"][: MAX_IDS - 3]))
    page.locator("#list-0").press("Enter")
    page.locator('.rrf-table[data-k="60"] tbody tr').first.wait_for()
    assert page.locator("#error").text_content() == ""
    assert page.locator(".rrf-table tbody tr").count() == MAX_IDS


@pytest.mark.browser
def test_ids_are_shown_as_text_never_as_markup(built, offline):
    page = offline().open(built)
    typed = ["a  b", '<img src=x onerror="window.pwned=1">', "$x^2$", "&amp;"]
    page.locator("#list-0").fill(", ".join(typed))
    page.locator("#list-0").press("Enter")
    page.locator('.rrf-table tbody tr[data-id="$x^2$"]').wait_for()
    shown = _texts(page, ".rrf-table tbody th.id")
    assert sorted(shown) == sorted([*typed, "5.3", "6.1", "4.2"])
    assert page.locator("main img").count() == 0 and page.evaluate("window.pwned") is None
    assert typed[1][:23] + "…" in _texts(page, "#chart svg text")  # the chart cuts labels at 24 characters
    assert page.locator("#note").text_content() == message("explorer.note.space", name=repr("BM25"),
                                                            item=repr("a  b"))


@pytest.mark.browser
def test_a_400_pixel_wide_screen_needs_no_sideways_scrolling(built, offline):
    page = offline(width=400, height=900).open(built, "?lang=zh")
    page.locator('.rrf-table[data-k="60"]').wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    boxes = page.evaluate("""Array.from(document.querySelectorAll('#k-range, #list-0, #chart svg,.table-box'))
                             .map(e => e.getBoundingClientRect().right)""")
    assert len(boxes) == 5 and max(boxes) <= 400, boxes
    _tab_to(page, "k-range")
    page.keyboard.press("Home")
    page.locator('.rrf-table[data-k="1"]').wait_for()
    assert _screenshot(page, "k1_zh_400px").stat().st_size > 20_000


def _score_cells_and_box(page) -> tuple[list[list[float]], list[float]]:
    """[left, right] of the RRF score's heading and every score cell, and of the table's box."""
    return page.evaluate("""() => {
        const side = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.right]; };
        const cells = [...document.querySelectorAll('.rrf-table td.score')];
        const heading = document.querySelector('.rrf-table thead tr').cells[cells[0].cellIndex];
        return [[heading, ...cells].map(side), side(document.getElementById('table'))];
    }""")


@pytest.mark.browser
@pytest.mark.parametrize("width", [400, 360])
@pytest.mark.parametrize("language", ["en", "zh"])
def test_on_a_phone_every_rrf_score_is_on_screen_and_the_wide_table_says_it_scrolls(
    built, offline, width, language
):
    page = offline(width=width, height=900).open(built, "?lang=zh" if language == "zh" else "")
    page.locator('.rrf-table[data-k="60"]').wait_for()
    lists = {**ARTICLE, "L3": ["3.5", "9.9"]}
    for step in ("article", "three lists"):
        if step == "three lists":
            # forget the last measurement: the page sets it again once the new table is laid out
            page.evaluate("delete document.getElementById('table').dataset.scrolls")
            page.locator("#add-list").click()
            page.locator("#list-2").fill(", ".join(lists["L3"]))
            page.locator("#list-2").press("Enter")
            page.locator('.rrf-table tbody tr[data-id="9.9"]').wait_for()
        assert page.evaluate("document.documentElement.scrollWidth") <= width, step
        for scrolled in ("left", "right"):  # the box scrolled to either end
            page.evaluate("end => { document.getElementById('table').scrollLeft = end ? 1e6 : 0; }",
                          scrolled == "right")
            scores, (box_left, box_right) = _score_cells_and_box(page)
            assert len(scores) == 1 + len(_table_rows(page, 60))
            seen = (max(0, box_left), min(width, box_right))  # what of the box is on the screen
            outside = [cell for cell in scores if not (seen[0] <= cell[0] and cell[1] <= seen[1])]
            assert outside == [], (step, scrolled, box_left, box_right, outside)
        # what still scrolls sideways says so
        page.locator(".table-box[data-scrolls]").wait_for(state="attached")
        if page.locator(".table-box").get_attribute("data-scrolls") == "1":
            use_language(language)
            try:
                hint = message("explorer.page.table_scrolls")
            finally:
                use_language("en")
            assert page.locator("#table-hint").is_visible(), step
            assert page.locator("#table-hint").text_content() == hint
    page.evaluate("document.getElementById('table').scrollLeft = 0")
    name = str(width) if language == "en" else f"{width}_{language}"
    assert _screenshot(page, name).stat().st_size > 20_000


@pytest.mark.browser
def test_a_table_that_fits_shows_no_scroll_hint(built, offline):
    page = offline().open(built)
    page.locator('.table-box[data-scrolls="0"]').wait_for(state="attached")
    assert not page.locator("#table-hint").is_visible()


@pytest.mark.browser
def test_a_score_halfway_between_two_shown_values_rounds_as_the_notebook_rounds_it(built, offline):
    """1/32 = 0.03125 exactly: Python's format (the notebook's) shows 0.0312, JavaScript's toFixed 0.0313."""
    page = offline().open(built)
    for box, text in (("#list-0", "x"), ("#list-1", "y")):
        page.locator(box).fill(text)
        page.locator(box).press("Enter")
    page.locator("#k-number").fill("31")
    page.locator("#k-number").press("Enter")
    page.locator('.rrf-table[data-k="31"]').wait_for()
    assert _table_rows(page, 31) == expected_rows({"BM25": ["x"], "vector": ["y"]}, 31) == [
        ["x", "0.0312"], ["y", "0.0312"]]
    assert page.locator("#lead").text_content().startswith("At k = 31, x and y tie at 0.0312;")
    assert page.evaluate("(0.03125).toFixed(4)") == "0.0313"


SENTENCE_CASES = [  # (lists, k, window, language): the lead line and the table, as the notebook words them
    (ARTICLE, 60, None, "en"),
    ({"BM25": ["A", "B"], "vector": ["A", "X", "B"], "L3": ["Y", "Z", "B"]}, 2, None, "en"),  # lead changes
    ({"BM25": ["a", "b", "c"], "vector": ["c", "b", "a"]}, 5, None, "en"),  # a tie for the lead
    (ARTICLE, 1, 2, "en"),  # a window
    ({"BM25": ["x"], "vector": ["x"]}, 1, None, "en"),  # a single item
    ({"BM25": ["A", "B"], "vector": ["A", "X", "B"], "L3": ["Y", "Z", "B"]}, 7, 2, "zh"),
]


@pytest.mark.parametrize(("lists", "k", "window", "language"), SENTENCE_CASES)
@pytest.mark.browser
def test_the_lead_line_and_the_table_read_as_the_notebooks_explorer_writes_them(
    built, offline, lists, k, window, language
):
    import html

    from ragmath.lab.messages import reader_lists
    from ragmath.lab.notebook.widgets import describe_lead, fused_table, render_table_html

    page = offline().open(built, "?lang=zh" if language == "zh" else "")
    if len(lists) == 3:
        page.locator("#add-list").click()
    for index, ids in enumerate(lists.values()):
        page.locator(f"#list-{index}").fill(", ".join(ids))
        page.locator(f"#list-{index}").press("Enter")
    if window is not None:
        page.select_option("#window", str(window))
    page.locator("#k-number").fill(str(k))
    page.locator("#k-number").press("Enter")
    page.locator(f'.rrf-table[data-k="{k}"][data-window="{window or "all"}"]').wait_for()
    use_language(language)
    try:
        named = reader_lists(lists)  # the page names the article's lists in its language, as a notebook does
        lead = describe_lead(named, k, window)
        markup = render_table_html(fused_table(named, k, window), k, window)
    finally:
        use_language("en")
    cells = [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<t[dh]>(.*?)</t[dh]>", markup)]
    assert len(cells) >= 2 * (len(lists) * 2 + 4) and lead  # the header and at least one row
    assert page.locator("#lead").text_content() == lead
    assert _texts(page, ".rrf-table th, .rrf-table td") == cells


# ------------------------------------------------------------ IDs and the k box (issue 36, fuzz round 4)
# What str.strip() trims (str.isspace: U+001C..U+001F and U+0085 among it), and what JavaScript's trim()
# and \s take that Python's does not (U+FEFF), and one neither takes (U+200B).
STRIP_ENDS = [chr(c) for c in range(0x3001) if chr(c).isspace()] + ["\ufeff", "\u200b"]


def _typed_ids(page, text: str) -> list[str]:
    """The IDs of the table after typing ``text`` into the first list box (the second list is 'x')."""
    page.locator("#list-0").fill(text)
    page.locator("#list-0").press("Enter")
    return sorted(set(page.evaluate(
        "Array.from(document.querySelectorAll('.rrf-table tbody tr')).map(tr => tr.dataset.id)")) - {"x"})


@pytest.mark.browser
def test_the_page_trims_an_ids_ends_exactly_as_parse_list_does(built, offline):
    page = offline().open(built)
    page.locator("#list-1").fill("x")
    page.locator("#list-1").press("Enter")
    got, want = {}, {}
    for end in STRIP_ENDS:
        text = f"{end}a{end}, {end}b"
        got[hex(ord(end))] = _typed_ids(page, text)
        want[hex(ord(end))] = sorted(parse_list(text))
    assert got == want
    # the two of the report: U+001C is trimmed, U+FEFF kept
    assert want["0x1c"] == ["a", "b"] and want["0xfeff"] == ["\ufeffa\ufeff", "\ufeffb"]


@pytest.mark.browser
def test_the_page_notes_a_space_inside_an_id_where_parse_list_sees_one(built, offline):
    page = offline().open(built)
    got, want = {}, {}
    for inside in STRIP_ENDS:
        if inside in "\n\r":  # a text box cannot hold a line break: the browser drops it as typed
            continue
        page.locator("#list-0").fill(f"a{inside}b, 6.1")
        page.locator("#list-0").press("Enter")
        page.locator('.rrf-table[data-k="60"] tbody tr').first.wait_for()
        got[hex(ord(inside))] = page.locator("#note").text_content() != ""
        want[hex(ord(inside))] = inside.isspace()  # widgets._space_note: any(ch.isspace() for ch in item)
    assert got == want


def _mark_the_table(page) -> None:
    page.evaluate("document.querySelector('.rrf-table').dataset.seen = 'before'")


@pytest.mark.browser
def test_emptying_the_k_box_keeps_the_last_valid_k_without_recomputing(built, offline):
    page = offline().open(built)
    page.locator("#k-number").fill("7")
    page.locator("#k-number").press("Enter")
    page.locator('.rrf-table[data-k="7"]').wait_for()
    rows = _table_rows(page, 7)
    lead = page.locator("#lead").text_content()
    _mark_the_table(page)
    # as a reader empties it: select all, delete, then Enter; and once more leaving the box with Tab
    for leave in ("Enter", "Tab"):
        page.locator("#k-number").focus()
        page.keyboard.press("Control+A")
        page.keyboard.press("Backspace")
        page.keyboard.press(leave)
        assert page.locator("#k-number").input_value() == "7"
        assert page.locator("#k-range").input_value() == "7"
        assert page.locator('.rrf-table[data-k="7"][data-seen="before"]').count() == 1  # not redrawn
        assert _table_rows(page, 7) == rows == expected_rows(ARTICLE, 7)
        assert page.locator("#lead").text_content() == lead and page.locator("#error").text_content() == ""
    page.locator("#k-number").fill("")  # emptied in one step
    page.locator("#k-number").press("Enter")
    assert page.locator("#k-number").input_value() == "7"
    assert page.locator('.rrf-table[data-k="7"][data-seen="before"]').count() == 1
    page.locator("#k-number").fill("9")  # a typed k still counts
    page.locator("#k-number").press("Enter")
    page.locator('.rrf-table[data-k="9"]').wait_for()
    assert _table_rows(page, 9) == expected_rows(ARTICLE, 9)
