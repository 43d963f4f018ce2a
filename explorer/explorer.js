// The RRF k explorer as a static page (make explorer; docs/classroom.md).
// A classic script, not a module: Chromium refuses module imports and fetch from file://.
// window.raglab.fuse and window.raglab.leadChanges are the page's one arithmetic;
// tests/test_explorer_page.py checks them against ragmath.rrf.
(function () {
  "use strict";

  const PAGE = window.RAGLAB_PAGE; // page-data.js, written by tools/build_explorer.py
  const SETTINGS = PAGE.settings;
  const SVG_NS = "http://www.w3.org/2000/svg";

  // ------------------------------------------------------------------------------- arithmetic
  // The page's copy of the tie rule (ragmath.ranking.tie_rule_order in Python; tests/test_explorer_page.py
  // checks one against the other): tied IDs compare as Python compares strings, by code point. JavaScript's <
  // compares UTF-16 units, which puts U+10000 and above (two surrogate units, 0xD800...) before U+E000...U+FFFF.
  function compareIds(a, b) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      if (a.charCodeAt(i) !== b.charCodeAt(i)) {
        // At a high surrogate codePointAt reads the whole character; elsewhere the unit itself.
        return a.codePointAt(i) - b.codePointAt(i);
      }
    }
    return a.length - b.length;
  }

  function gcd(a, b) {
    while (b !== 0n) {
      [a, b] = [b, a % b];
    }
    return a;
  }

  // The exact fused score Σ 1/(k + rank) as a reduced fraction of BigInts.
  function exactScore(ranks, k) {
    let num = 0n;
    let den = 1n;
    for (const rank of ranks) {
      if (rank === null) continue;
      const term = BigInt(k + rank);
      const common = gcd(den, term);
      num = num * (term / common) + den / common;
      den = (den / common) * term;
    }
    const divisor = gcd(num, den) || 1n;
    return { num: num / divisor, den: den / divisor };
  }

  function compareFractions(a, b) {
    const left = a.num * b.den;
    const right = b.num * a.den;
    return left < right ? -1 : left > right ? 1 : 0;
  }

  function fractionText(f) {
    return f.den === 1n ? String(f.num) : `${f.num}/${f.den}`;
  }

  function floatScore(ranks, k) {
    let sum = 0;
    for (const rank of ranks) {
      if (rank !== null) sum += 1 / (k + rank);
    }
    return sum;
  }

  function checkK(k) {
    if (!Number.isSafeInteger(k) || k < 1) {
      throw new RangeError(`k must be a whole number >= 1, got ${String(k)}`);
    }
  }

  function checkWindow(window) {
    if (window !== null && window !== undefined && (!Number.isSafeInteger(window) || window < 1)) {
      throw new RangeError(`window must be null (all) or a whole number >= 1, got ${String(window)}`);
    }
    return window === undefined ? null : window;
  }

  // lists: {name: [id, ...]} best first, or [[name, [id, ...]], ...] (the page's own order of lists).
  // Returns the names, and every item in first-appearance order with its rank in each list (null: absent).
  function rankTable(lists, window) {
    const pairs = Array.isArray(lists) ? lists : Object.entries(lists || {});
    if (pairs.length === 0) throw new TypeError("lists: give at least one list, e.g. {BM25: ['4.2']}");
    const names = pairs.map(([name]) => String(name));
    const byId = new Map();
    pairs.forEach(([name, ids], column) => {
      if (!Array.isArray(ids)) throw new TypeError(`list ${name}: expected an array of IDs`);
      const seen = new Set();
      ids.forEach((id) => {
        if (typeof id !== "string") throw new TypeError(`list ${name}: IDs must be strings, got ${typeof id}`);
        if (seen.has(id)) throw new RangeError(`list ${name}: ID ${id} appears twice`);
        seen.add(id);
      });
      const kept = window === null ? ids : ids.slice(0, window);
      kept.forEach((id, position) => {
        if (!byId.has(id)) byId.set(id, new Array(pairs.length).fill(null));
        byId.get(id)[column] = position + 1;
      });
    });
    const items = Array.from(byId, ([id, ranks]) => ({ id, ranks }));
    return { names, items };
  }

  // Floats differ from the exact scores by ~1e-16 relatively; closer than this, decide exactly.
  const NEAR = 1e-9;

  function nearlyEqual(a, b) {
    return Math.abs(a - b) <= NEAR * Math.max(a, b);
  }

  // The fused table at k, best first: score descending (exactly), then ID by code point, as ragmath.rrf.
  // Each row keeps its exact score (BigInts) as `exact`; fuse() hands out rows without it.
  function fuseRows(lists, k, window) {
    checkK(k);
    const { names, items } = rankTable(lists, checkWindow(window));
    const rows = items.map((item) => ({
      id: item.id,
      rankList: item.ranks,
      score: floatScore(item.ranks, k),
      exact: exactScore(item.ranks, k),
    }));
    rows.sort((a, b) => {
      if (!nearlyEqual(a.score, b.score)) return b.score - a.score;
      return compareFractions(b.exact, a.exact) || compareIds(a.id, b.id);
    });
    const out = rows.map((row, index) => {
      const ranks = {};
      const contributions = {};
      names.forEach((name, column) => {
        const rank = row.rankList[column];
        ranks[name] = rank;
        contributions[name] = rank === null ? 0 : 1 / (k + rank);
      });
      return {
        id: row.id, place: index + 1, score: row.score, fraction: fractionText(row.exact),
        tied: false, ranks, contributions, exact: row.exact,
      };
    });
    for (let i = 1; i < out.length; i++) {
      if (compareFractions(out[i].exact, out[i - 1].exact) === 0) {
        out[i].place = out[i - 1].place; // competition ranking: 1, 1, 3
        out[i].tied = out[i - 1].tied = true;
      }
    }
    return out;
  }

  function fuse(lists, k, window) {
    return fuseRows(lists, k, window).map(({ exact, ...row }) => row);
  }

  // The leader at every k from kMin to kMax: the first row of fuse(lists, k, window), found without sorting.
  function leadersByK(items, kMin, kMax) {
    const leaders = [];
    for (let k = kMin; k <= kMax; k++) {
      let best = -Infinity;
      const scores = items.map((item) => floatScore(item.ranks, k));
      for (const s of scores) best = Math.max(best, s);
      let leader = null;
      let leaderExact = null;
      items.forEach((item, i) => {
        if (!nearlyEqual(scores[i], best)) return;
        const exact = exactScore(item.ranks, k);
        const order = leader === null ? -1 : compareFractions(leaderExact, exact) || compareIds(item.id, leader);
        if (order < 0) {
          leader = item.id;
          leaderExact = exact;
        }
      });
      leaders.push({ k, leader });
    }
    return leaders;
  }

  function changesFrom(leaders) {
    const changes = [];
    for (let i = 1; i < leaders.length; i++) {
      if (leaders[i].leader !== leaders[i - 1].leader) {
        changes.push({ k: leaders[i].k, previous: leaders[i - 1].leader, leader: leaders[i].leader });
      }
    }
    return changes;
  }

  // Where the leader changes for integer k from 1 to 200: [{k, previous, leader}, ...].
  function leadChanges(lists, window) {
    const { items } = rankTable(lists, checkWindow(window));
    if (items.length === 0) return [];
    return changesFrom(leadersByK(items, SETTINGS.kMin, SETTINGS.kMax));
  }

  // -------------------------------------------------------------------------------- messages
  let language = "en";

  // Python's repr of a str: single quotes unless the text holds one and no double quote.
  function pythonRepr(text) {
    const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
    let body = text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t");
    if (quote === "'") body = body.replace(/'/g, "\\'");
    return quote + body + quote;
  }

  // toFixed rounds a value exactly halfway up; Python's format (which the notebook uses) rounds it to even.
  function fixed(value, decimals) {
    const shown = value.toFixed(decimals);
    const longer = value.toFixed(decimals + 25);
    const rest = longer.slice(longer.length - 25);
    if (rest === "5" + "0".repeat(24)) {
      const lastDigit = Number(longer.charAt(longer.length - 26));
      if (lastDigit % 2 === 0) return longer.slice(0, longer.length - 25).replace(/\.$/, "");
    }
    return shown;
  }

  function grouped(value) {
    return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }

  // Fills a catalogue template: {name}, {name!r}, {name:,}, {name:.4f}, and {{ }} for braces.
  function message(key, fields = {}) {
    const template = PAGE.messages[language][key];
    if (template === undefined) throw new Error(`no message ${key}`);
    return template.replace(/\{\{|\}\}|\{(\w+)(!r)?(?::([^}]*))?\}/g, (whole, name, repr, spec) => {
      if (whole === "{{") return "{";
      if (whole === "}}") return "}";
      const value = fields[name];
      if (repr) return pythonRepr(String(value));
      if (spec === ".4f") return fixed(value, 4);
      if (spec === ",") return grouped(value);
      return String(value);
    });
  }

  // A score gap with enough decimals to show its first significant digit (widgets._fmt_margin).
  function formatMargin(margin) {
    if (margin === 0 || !Number.isFinite(margin)) return fixed(margin, 4);
    const decimals = Math.max(4, -Math.floor(Math.log10(Math.abs(margin))) + 1);
    return fixed(margin, Math.min(decimals, 60));
  }

  // -------------------------------------------------------------------------------- parsing
  class InputError extends Error {}

  // As widgets.parse_list: IDs separated by "," or "，" only; spaces inside an ID belong to it. The ends
  // are trimmed of what Python's str.strip() trims (str.isspace: U+001C..U+001F and U+0085 too), not of
  // what JavaScript's trim() does (it also takes U+FEFF): parse_list is the reference. The character
  // class is written out here so that the function stands alone; PYTHON_SPACE below is the same class.
  function parseList(text, name) {
    const parts = text.split(/[,，]/).map((part) => part.replace(
      /^[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g, ""));
    if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
    if (parts.length === 1 && parts[0] === "") throw new InputError(message("explorer.error.empty_list", { name }));
    const firstSeen = new Map();
    parts.forEach((item, index) => {
      const position = index + 1;
      if (item === "") throw new InputError(message("explorer.error.empty_entry", { name, position }));
      if (firstSeen.has(item)) {
        throw new InputError(message("explorer.error.duplicate",
          { name, item, first: firstSeen.get(item), second: position }));
      }
      firstSeen.set(item, position);
    });
    return parts;
  }

  // A space inside an ID, as widgets._space_note finds it (str.isspace): the class of parseList's trim,
  // not JavaScript's \s (which also takes U+FEFF and leaves U+001C..U+001F and U+0085 out).
  const PYTHON_SPACE = /[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

  // ---------------------------------------------------------------------------------- state
  const state = {
    lists: SETTINGS.articleLists.map(([name, ids]) => ({ name, text: ids.join(", ") })),
    k: SETTINGS.kStart,
    window: null,
    parsed: null, // [[name, ids], ...] of the last valid input
    error: null,
    scanKey: null,
    scan: null, // per lists and window: leaders by k, lead changes, curves
  };

  const $ = (id) => document.getElementById(id);

  function element(tag, attributes, text) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text; // IDs are text, never markup
    return node;
  }

  function svgElement(tag, attributes, text) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // IDs and list names cut to `limit` characters (code points) in the chart, an ellipsis marking the cut.
  function short(text, limit = 24) {
    const chars = Array.from(text);
    return chars.length <= limit ? text : chars.slice(0, limit - 1).join("") + "…";
  }

  function itemColours(parsed) {
    const colours = new Map();
    for (const [, ids] of parsed) {
      for (const id of ids) {
        if (!colours.has(id)) colours.set(id, SETTINGS.palette[colours.size % SETTINGS.palette.length]);
      }
    }
    return colours;
  }

  // ----------------------------------------------------------------------------- the inputs
  function nextListName() {
    const used = new Set(state.lists.map((list) => list.name));
    let n = state.lists.length + 1;
    while (used.has(`L${n}`)) n++;
    return `L${n}`;
  }

  function renderListInputs() {
    const box = $("list-rows");
    box.replaceChildren();
    state.lists.forEach((list, index) => {
      const row = element("div", { class: "list-row" });
      const id = `list-${index}`;
      row.append(element("label", { for: id }, list.name));
      const input = element("input", {
        type: "text", id, spellcheck: "false", autocomplete: "off",
        placeholder: message("explorer.control.placeholder"),
      });
      input.value = list.text;
      input.dataset.list = list.name;
      const commit = () => {
        if (list.text !== input.value) {
          list.text = input.value;
          update();
        }
      };
      input.addEventListener("change", commit);
      input.addEventListener("keydown", (event) => {
        if (event.key === "Enter") commit();
      });
      row.append(input);
      if (state.lists.length > 1) {
        const remove = element("button", {
          type: "button", class: "remove",
          "aria-label": message("explorer.page.remove_list", { name: list.name }),
          title: message("explorer.page.remove_list", { name: list.name }),
        }, "×");
        remove.addEventListener("click", () => {
          state.lists.splice(index, 1);
          renderListInputs();
          update();
          const inputs = document.querySelectorAll("#list-rows input");
          inputs[Math.min(index, inputs.length - 1)].focus();
        });
        row.append(remove);
      }
      box.append(row);
    });
    $("add-list").disabled = state.lists.length >= SETTINGS.maxLists;
  }

  function renderWindowOptions() {
    const select = $("window");
    const longest = state.parsed ? Math.max(...state.parsed.map(([, ids]) => ids.length)) : 0;
    const sizes = new Set();
    for (let n = 1; n <= SETTINGS.windowMax; n++) sizes.add(n);
    for (const n of [25, 30, 40, 50, 75, 100, 150, 200, 300, 500, 1000]) if (n < longest) sizes.add(n);
    if (state.window !== null) sizes.add(state.window);
    select.replaceChildren(element("option", { value: "0" }, message("explorer.control.all")));
    for (const n of Array.from(sizes).sort((a, b) => a - b)) {
      select.append(element("option", { value: String(n) }, message("explorer.control.top", { n })));
    }
    select.value = String(state.window || 0);
  }

  // ----------------------------------------------------------------------------- rendering
  function scanFor(parsed, window) {
    const key = JSON.stringify([parsed, window]);
    if (state.scanKey === key) return state.scan;
    const { items } = rankTable(parsed, window);
    const leaders = leadersByK(items, SETTINGS.kMin, SETTINGS.kMax);
    const ks = leaders.map((entry) => entry.k);
    const scores = ks.map((k) => items.map((item) => floatScore(item.ranks, k)));
    state.scan = { items, leaders, changes: changesFrom(leaders), ks, scores, drawn: drawnItems(items, scores) };
    state.scanKey = key;
    return state.scan;
  }

  // As widgets.drawn_items: at most topDrawn items, by the best place each reaches at any k.
  function drawnItems(items, scores) {
    const indices = items.map((_, i) => i);
    if (items.length <= SETTINGS.topDrawn) return indices;
    const best = new Array(items.length).fill(Infinity);
    for (const row of scores) {
      const order = indices.slice().sort((a, b) => row[b] - row[a] || a - b);
      order.forEach((item, place) => {
        if (place < best[item]) best[item] = place;
      });
    }
    return indices.sort((a, b) => best[a] - best[b] || a - b).slice(0, SETTINGS.topDrawn);
  }

  function leadSentence(rows, scan) {
    const k = state.k;
    const [first, second] = rows;
    let now;
    if (second === undefined) {
      now = message("explorer.lead.only", { k, leader: first.id, score: first.score });
    } else if (first.tied) {
      now = message("explorer.lead.tie", { k, leader: first.id, runner_up: second.id, score: first.score });
    } else {
      const gap = { num: first.exact.num * second.exact.den - second.exact.num * first.exact.den,
        den: first.exact.den * second.exact.den };
      now = message("explorer.lead.leads", {
        k, leader: first.id, score: first.score, runner_up: second.id,
        margin: formatMargin(Number(gap.num) / Number(gap.den)),
      });
    }
    const span = { k_lo: SETTINGS.kMin, k_hi: SETTINGS.kMax };
    let spanText;
    if (scan.changes.length === 0) {
      spanText = message("explorer.lead.never_changes", span);
    } else {
      const parts = scan.changes.map((change) => message("explorer.lead.change", change));
      spanText = message("explorer.lead.changes", { ...span, changes: parts.join(message("common.list_separator")) });
    }
    return message("explorer.lead.sentence", { now, span: spanText });
  }

  function renderTable(rows, names) {
    const k = state.k;
    const table = element("table", { class: "rrf-table", "data-k": String(k),
      "data-window": state.window === null ? "all" : String(state.window) });
    const head = element("tr");
    head.append(element("th", { scope: "col" }, message("explorer.table.place")), element("th", { scope: "col" }, "ID"));
    for (const name of names) {
      head.append(element("th", { scope: "col" }, message("explorer.table.rank", { name })));
      head.append(element("th", { scope: "col" }, message("explorer.table.contribution", { name })));
    }
    head.append(element("th", { scope: "col", class: "score" }, message("explorer.table.score")),
      element("th", { scope: "col" }, message("explorer.table.gap")));
    const thead = element("thead");
    thead.append(head);
    table.append(thead);
    const body = element("tbody");
    rows.forEach((row, index) => {
      const tr = element("tr");
      tr.dataset.id = row.id;
      const place = row.tied ? message("explorer.table.tied_place", { place: row.place }) : String(row.place);
      tr.append(element("td", {}, place), element("th", { scope: "row", class: "id" }, row.id));
      for (const name of names) {
        const rank = row.ranks[name];
        tr.append(element("td", {}, rank === null ? "—" : String(rank)));
        tr.append(element("td", {}, rank === null ? "0" : `1/${k + rank} = ${fixed(row.contributions[name], 4)}`));
      }
      tr.append(element("td", { class: "score" }, fixed(row.score, 4)));
      const next = rows[index + 1];
      let gap = "";
      if (next !== undefined) {
        gap = next.place === row.place ? message("explorer.table.tied") : formatMargin(row.score - next.score);
      }
      tr.append(element("td", {}, gap));
      body.append(tr);
    });
    table.append(body);
    return table;
  }

  // A chart's drawing width: its box's width on a narrow screen, so that its text is not shrunk.
  // Measured when the page starts and when the window is resized, never while the page is being
  // rebuilt (reading a width then lays out a table of up to 1,000 rows again).
  let chartWidth = 520;

  function measureChartWidth() {
    return Math.round(Math.max(320, Math.min(520, $("chart").clientWidth || 520)));
  }

  // The hint "swipe the table sideways" shows only while the table is wider than its box (a phone):
  // checked when the box or a new table changes size, after the browser has laid them out.
  const tableWidths = typeof ResizeObserver === "function" ? new ResizeObserver(() => {
    const box = $("table");
    const scrolls = box.scrollWidth > box.clientWidth + 1;
    box.dataset.scrolls = scrolls ? "1" : "0";
    $("table-hint").hidden = !scrolls;
  }) : null;

  function watchTableWidth(table) {
    if (tableWidths === null) return;
    tableWidths.disconnect();
    tableWidths.observe($("table"));
    tableWidths.observe(table);
  }

  // Left chart: each list's share of the fused score (stacked grey bars) for the top items at this k.
  function barsChart(rows, names, colours) {
    const shown = rows.slice(0, SETTINGS.topDrawn);
    const width = chartWidth;
    const labelLimit = width < 480 ? 12 : 24; // characters of an ID beside its bar
    const labelWidth = 12 + 7 * Math.max(3, ...shown.map((row) => Array.from(short(row.id, labelLimit)).length));
    const rowHeight = 22;
    const top = 48;
    const height = top + rowHeight * shown.length + 40;
    const plotWidth = width - labelWidth - 90;
    const svg = svgElement("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart bars", role: "img" });
    const title = message("explorer.chart.bars_title", { k: state.k });
    svg.setAttribute("aria-label", title);
    svg.append(svgElement("text", { x: 4, y: 16, class: "title" }, title));
    let legendX = labelWidth;
    names.forEach((name, column) => {
      svg.append(svgElement("rect", { x: legendX, y: 26, width: 12, height: 10, fill: SETTINGS.listShades[column] }));
      const label = svgElement("text", { x: legendX + 16, y: 35, class: "small" }, short(name, 16));
      svg.append(label);
      legendX += 28 + 7 * Array.from(short(name, 16)).length;
    });
    const highest = Math.max(...shown.map((row) => row.score), 0) || 1;
    const scale = plotWidth / (highest * 1.05);
    const tiedWord = message("explorer.chart.tied");
    shown.forEach((row, i) => {
      const y = top + i * rowHeight;
      svg.append(svgElement("text", { x: labelWidth - 6, y: y + 15, "text-anchor": "end", fill: colours.get(row.id) || "#000" },
        short(row.id, labelLimit)));
      let x = labelWidth;
      names.forEach((name, column) => {
        const w = row.contributions[name] * scale;
        if (w > 0) {
          svg.append(svgElement("rect", { x, y: y + 3, width: w, height: rowHeight - 6, fill: SETTINGS.listShades[column],
            stroke: "#fff", "stroke-width": 1 }));
        }
        x += w;
      });
      svg.append(svgElement("text", { x: x + 4, y: y + 15, class: "small" }, fixed(row.score, 4) + (row.tied ? tiedWord : "")));
    });
    svg.append(svgElement("text", { x: labelWidth, y: height - 12, class: "small" }, message("explorer.chart.bars_xlabel")));
    return svg;
  }

  // Right chart: every drawn item's score ÷ the leader's, against k (log scale); a line at this k.
  function curvesChart(scan, colours) {
    const width = chartWidth;
    const height = 300;
    const left = 52;
    const right = width - 12;
    const top = 30;
    const bottom = height - 44;
    const logMin = Math.log(SETTINGS.kMin);
    const logMax = Math.log(SETTINGS.kMax);
    const xOf = (k) => left + ((Math.log(k) - logMin) / (logMax - logMin)) * (right - left);
    const leaderScore = scan.scores.map((row) => row.reduce((a, b) => Math.max(a, b), 0));
    const relative = scan.drawn.map((item) => scan.scores.map((row, j) => row[item] / leaderScore[j]));
    const low = Math.max(0, Math.min(1, ...relative.flat()) - 0.05);
    const yOf = (value) => bottom - ((value - low) / (1.04 - low)) * (bottom - top);
    const svg = svgElement("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart curves", role: "img" });
    const title = message("explorer.chart.curves_title");
    svg.setAttribute("aria-label", title);
    svg.append(svgElement("text", { x: 4, y: 16, class: "title" }, title));
    svg.append(svgElement("rect", { x: left, y: top, width: right - left, height: bottom - top, class: "frame" }));
    for (const tick of [1, 2, 5, 10, 20, 50, 100, 200].filter((t) => t >= SETTINGS.kMin && t <= SETTINGS.kMax)) {
      svg.append(svgElement("text", { x: xOf(tick), y: bottom + 14, "text-anchor": "middle", class: "small" }, String(tick)));
    }
    for (const value of [low, (low + 1) / 2, 1]) {
      svg.append(svgElement("text", { x: left - 4, y: yOf(value) + 4, "text-anchor": "end", class: "small" }, value.toFixed(2)));
    }
    svg.append(svgElement("text", { x: (left + right) / 2, y: height - 8, "text-anchor": "middle", class: "small" },
      message("explorer.chart.curves_xlabel")));
    svg.append(svgElement("text", { x: 12, y: (top + bottom) / 2, "text-anchor": "middle", class: "small",
      transform: `rotate(-90 12 ${(top + bottom) / 2})` }, message("explorer.chart.curves_ylabel")));
    for (const change of scan.changes) {
      svg.append(svgElement("line", { x1: xOf(change.k), x2: xOf(change.k), y1: top, y2: bottom, class: "change" }));
    }
    // Items with the same ranks have the same curve: later ones are dashed on top of the first.
    const firstWith = new Map();
    const twins = scan.drawn.map((item) => {
      const signature = scan.items[item].ranks.map((r) => (r === null ? Infinity : r)).sort((a, b) => a - b).join(" ");
      if (!firstWith.has(signature)) firstWith.set(signature, item);
      return firstWith.get(signature);
    });
    scan.drawn.forEach((item, i) => {
      const points = scan.ks.map((k, j) => `${xOf(k).toFixed(1)},${yOf(relative[i][j]).toFixed(1)}`).join(" ");
      const line = svgElement("polyline", { points, fill: "none", stroke: colours.get(scan.items[item].id), "stroke-width": 1.8 });
      if (twins[i] !== item) line.setAttribute("stroke-dasharray", "4 4");
      svg.append(line);
    });
    const kIndex = scan.ks.indexOf(state.k);
    svg.append(svgElement("line", { x1: xOf(state.k), x2: xOf(state.k), y1: top, y2: bottom, class: "now" }));
    scan.drawn.forEach((item, i) => {
      svg.append(svgElement("circle", { cx: xOf(state.k), cy: yOf(relative[i][kIndex]), r: 2.5, fill: "#000" }));
    });
    const legend = element("ul", { class: "legend" });
    legend.append(element("li", { class: "legend-title" }, message("explorer.chart.items")));
    scan.drawn.forEach((item, i) => {
      const id = scan.items[item].id;
      const twin = scan.items[twins[i]].id;
      const entry = element("li");
      const swatch = element("span", { class: twins[i] === item ? "swatch" : "swatch dashed" });
      swatch.style.borderColor = colours.get(id);
      entry.append(swatch, document.createTextNode(twin === id ? short(id) : `${short(id)} (= ${short(twin)})`));
      legend.append(entry);
    });
    const figure = element("div", { class: "curves-box" });
    figure.append(svg, legend);
    return figure;
  }

  function renderStaticTexts() {
    document.documentElement.lang = language === "zh" ? "zh-CN" : "en";
    for (const node of document.querySelectorAll("[data-msg]")) node.textContent = message(node.dataset.msg);
    for (const node of document.querySelectorAll("[data-msg-label]")) {
      node.setAttribute("aria-label", message(node.dataset.msgLabel));
    }
    document.title = message("explorer.page.title");
    $("help").textContent = message("explorer.help", { max_ids: SETTINGS.maxIds, top: SETTINGS.topDrawn });
    for (const button of document.querySelectorAll("[data-lang]")) {
      button.setAttribute("aria-pressed", String(button.dataset.lang === language));
    }
  }

  function showError(text) {
    state.error = text;
    $("error").textContent = `⚠ ${text}`;
    $("note").textContent = "";
    $("lead").textContent = "";
    const box = $("table");
    const explained = element("p", { class: "rrf-table", "data-k": String(state.k), "data-error": "1" },
      message("explorer.error.fix_input"));
    box.replaceChildren(explained);
    watchTableWidth(explained);
    $("chart").replaceChildren();
  }

  function update() {
    let parsed;
    try {
      parsed = state.lists.map((list) => [list.name, parseList(list.text, list.name)]);
      const distinct = new Set(parsed.flatMap(([, ids]) => ids)).size;
      if (distinct > SETTINGS.maxIds) {
        throw new InputError(message("explorer.error.too_many_ids",
          { distinct, max_ids: SETTINGS.maxIds, k_min: SETTINGS.kMin, k_max: SETTINGS.kMax }));
      }
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      state.parsed = null;
      showError(error.message);
      return;
    }
    state.parsed = parsed;
    state.error = null;
    $("error").textContent = "";
    renderWindowOptions();
    const withSpace = parsed.flatMap(([name, ids]) => ids.filter((id) => PYTHON_SPACE.test(id)).map((item) => ({ name, item })));
    $("note").textContent = withSpace.length
      ? message("explorer.note.space", { name: pythonRepr(withSpace[0].name), item: pythonRepr(withSpace[0].item) })
      : "";
    const rows = fuseRows(parsed, state.k, state.window);
    const scan = scanFor(parsed, state.window);
    const names = parsed.map(([name]) => name);
    const colours = itemColours(parsed);
    $("lead").textContent = leadSentence(rows, scan);
    const table = renderTable(rows, names);
    $("table").replaceChildren(table);
    watchTableWidth(table);
    const chart = $("chart");
    chart.replaceChildren(barsChart(rows, names, colours), curvesChart(scan, colours));
    if (rows.length > SETTINGS.topDrawn) {
      chart.append(element("p", { class: "rrf-note" },
        message("explorer.chart.drawn", { top: SETTINGS.topDrawn, total: rows.length })));
    }
  }

  // A box left empty, blank or not a number puts the last valid k back (Number("") is 0, which would
  // have been held at k = 1); a number out of range is held at kMin or kMax.
  function setK(value) {
    const number = String(value).trim() === "" ? NaN : Number(value);
    const k = Number.isFinite(number) ? Math.min(SETTINGS.kMax, Math.max(SETTINGS.kMin, Math.round(number)))
      : state.k;
    $("k-range").value = String(k);
    $("k-number").value = String(k);
    if (k !== state.k) {
      state.k = k;
      if (state.error === null) update();
      else showError(state.error);
    }
  }

  // The article's lists are named in the page's language (the catalogue's lists.*: vector, 向量); a list
  // added on the page keeps its own name (L3, ...).
  function nameArticleLists() {
    const keyOf = {};
    for (const texts of Object.values(PAGE.messages)) {
      for (const [key, word] of Object.entries(texts)) {
        if (key.startsWith("lists.")) keyOf[word] = key;
      }
    }
    for (const list of state.lists) {
      if (keyOf[list.name] !== undefined) list.name = message(keyOf[list.name]);
    }
  }

  function setLanguage(code, remember) {
    language = code in PAGE.messages ? code : "en";
    nameArticleLists();
    if (remember) {
      try { // file:// pages may refuse a history entry; the switch works without it
        const url = new URL(window.location.href);
        url.searchParams.set("lang", language);
        window.history.replaceState(null, "", url.href);
      } catch (ignored) { /* keep the address as it is */ }
    }
    renderStaticTexts();
    renderListInputs();
    update();
  }

  function start() {
    for (const id of ["k-range", "k-number"]) {
      const input = $(id);
      input.min = String(SETTINGS.kMin);
      input.max = String(SETTINGS.kMax);
      input.value = String(state.k);
    }
    $("k-range").addEventListener("input", (event) => setK(event.target.value));
    chartWidth = measureChartWidth();
    window.addEventListener("resize", () => {
      const width = measureChartWidth();
      if (width !== chartWidth) {
        chartWidth = width;
        if (state.error === null) update();
      }
    });
    $("k-number").addEventListener("change", (event) => setK(event.target.value));
    $("window").addEventListener("change", (event) => {
      state.window = Number(event.target.value) || null;
      update();
    });
    $("add-list").addEventListener("click", () => {
      if (state.lists.length >= SETTINGS.maxLists) return;
      state.lists.push({ name: nextListName(), text: "" });
      renderListInputs();
      update();
      const inputs = document.querySelectorAll("#list-rows input");
      inputs[inputs.length - 1].focus();
    });
    for (const button of document.querySelectorAll("[data-lang]")) {
      button.addEventListener("click", () => setLanguage(button.dataset.lang, true));
    }
    const asked = new URLSearchParams(window.location.search).get("lang");
    setLanguage(asked === "zh" ? "zh" : "en", false);
    document.body.dataset.ready = "1";
  }

  window.raglab = { fuse, leadChanges, compareIds };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
