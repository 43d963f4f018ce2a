// The labelling widget's view (anywidget ESM, shipped in the package: nothing is fetched).
// The kernel holds the state (`state`) and the words (`text`); this view draws them and sends actions.
// While the focus is inside the widget, 0, 1 and 2 grade and no plain key reaches JupyterLab (in command
// mode 0,0 would restart the kernel and 1 or 2 turn a cell into a heading). Two guards, each enough alone
// in the browser test: keys are caught on the window in the capture phase, before JupyterLab's handler,
// and stopped there; and the root carries data-lm-suppress-shortcuts, Lumino's own opt-out.

const KEYS = {
  "0": ["grade", 0], "1": ["grade", 1], "2": ["grade", 2],
  "s": ["skip"], "ArrowRight": ["skip"],
  "b": ["back"], "ArrowLeft": ["back"], "Backspace": ["back"],
  "n": ["none"],
};

function element(tag, className, parent) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (parent) parent.appendChild(node);
  return node;
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

function render({ model, el }) {
  const root = element("div", "ragmath-label", el);
  root.tabIndex = 0;
  root.dataset.lmSuppressShortcuts = "true";
  const bar = element("div", "ragmath-label-bar", root);
  const barFill = element("div", "ragmath-label-bar-fill", bar);
  const progress = element("div", "ragmath-label-progress", root);
  const questionBox = element("div", "ragmath-label-question", root);
  const questionId = element("span", "ragmath-label-id", questionBox);
  const questionText = element("span", "ragmath-label-question-text", questionBox);
  const chunkBox = element("div", "ragmath-label-chunk", root);
  const chunkId = element("div", "ragmath-label-id", chunkBox);
  const chunkText = element("div", "ragmath-label-chunk-text", chunkBox);
  const current = element("div", "ragmath-label-current", root);
  const buttons = element("div", "ragmath-label-buttons", root);
  const message = element("div", "ragmath-label-message", root);
  const hint = element("div", "ragmath-label-hint", root);

  const actions = [
    ["grade", 0, "grade0"], ["grade", 1, "grade1"], ["grade", 2, "grade2"],
    ["skip", null, "skip"], ["back", null, "back"], ["none", null, "none"],
  ];
  const buttonNodes = actions.map(([action, grade, key]) => {
    const button = element("button", "ragmath-label-button", buttons);
    button.type = "button";
    button.dataset.action = action;
    if (grade !== null) button.dataset.grade = String(grade);
    button.dataset.textKey = key;
    button.addEventListener("click", () => { send(action, grade); root.focus(); });
    return button;
  });

  function send(action, grade) {
    const state = model.get("state") || {};
    model.send({ action, grade, question: state.question ?? null, id: state.id ?? null });
  }

  function draw() {
    const state = model.get("state") || {};
    const text = model.get("text") || {};
    const total = state.total || 0;
    const labelled = state.labelled || 0;
    root.dataset.labelled = String(labelled);
    root.dataset.total = String(total);
    root.dataset.position = String(state.position ?? "");
    root.dataset.question = state.question ?? "";
    root.dataset.id = state.id ?? "";
    root.dataset.done = state.done ? "true" : "false";
    barFill.style.width = total ? `${(100 * labelled) / total}%` : "0%";
    progress.textContent = fill(text.progress || "", { labelled, total, item: (state.position ?? 0) + 1 });
    questionId.textContent = state.question ?? "";
    questionText.textContent = state.question_text ?? "";
    chunkId.textContent = state.id ?? "";
    chunkText.textContent = state.chunk_text ?? "";
    current.textContent = state.grade === null || state.grade === undefined
      ? (text.unlabelled || "") : fill(text.current || "", { grade: state.grade });
    for (const button of buttonNodes) {
      button.textContent = text[button.dataset.textKey] || button.dataset.textKey;
      button.classList.toggle("ragmath-label-chosen",
        button.dataset.grade !== undefined && String(state.grade) === button.dataset.grade);
    }
    message.textContent = state.done ? (text.done || "") : (state.message || "");
    hint.textContent = text.hint || "";
  }

  function onKey(event) {
    if (!root.contains(event.target)) return;
    if (event.ctrlKey || event.metaKey || event.altKey || event.key === "Tab") return;
    event.stopPropagation();  // no plain key reaches JupyterLab while the widget has the focus
    event.preventDefault();
    if (event.repeat) return;
    const action = KEYS[event.key];
    if (action) send(action[0], action.length > 1 ? action[1] : null);
  }

  root.addEventListener("mousedown", () => root.focus());
  window.addEventListener("keydown", onKey, true);
  model.on("change:state", draw);
  model.on("change:text", draw);
  draw();
  return () => {
    window.removeEventListener("keydown", onKey, true);
    model.off("change:state", draw);
    model.off("change:text", draw);
  };
}

export default { render };
