# RAG Lab: two commands do all the set-up. `make lab` to study, `make test` to check.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
HOST   := 127.0.0.1
PORT   ?= 8888
EXPLORER_PORT ?= 8866
EXPLORER_DIR  := build/explorer

.PHONY: help lab test venv venv-test browser-deps lint explorer html bench verify-holdout busy-runs clean

help:
	@echo "make lab       create .venv, install ragmath and the notebooks' packages, open JupyterLab on notebooks/"
	@echo "make test      create/update .venv with the test extra and run the whole suite (notebooks and browser too)"
	@echo "make explorer  build the RRF k explorer page into $(EXPLORER_DIR)/ and serve it on $(HOST):$(EXPLORER_PORT)"
	@echo "               (a static page: ?lang=zh for Chinese; the folder also works opened from disk)"
	@echo "make html      execute every notebook and write HTML copies under build/html/ (with the explorer page)"
	@echo "make bench     run the benchmarks (explorer redraw; the ablation on e5 vectors; ragmath vs pytrec_eval and ranx at scale)"
	@echo "make verify-holdout  re-run each holdout's one opening at its recorded commit; check the stored hashes"
	@echo "make busy-runs run the notebook and browser tests 5 times with 2 processes spinning on the CPU"

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "RAG Lab needs Python 3.10 or newer; set PYTHON=/path/to/python3.x")'
	$(PYTHON) -m venv $(VENV)

# ragmath alone needs numpy, pandas and polars; the workbook adds the [lab] extra, the checks [test].
$(VENV)/.runtime-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[lab]'
	@touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[lab,test]'
	@touch $@ $(VENV)/.runtime-installed

venv: $(VENV)/.runtime-installed
venv-test: $(VENV)/.test-installed

# JupyterLab refuses to run as root unless told; containers and CI machines often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

# No news pop-up over the tables, no update check: the flags stop the fetching, and the announcements
# plugin (which shows the pop-up) is disabled in the venv only (sys_prefix: not in ~/.jupyter).
# tests/test_browser.py starts its JupyterLab with the same two settings, read from here.
LAB_QUIET := --LabApp.news_url=None --LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate
ANNOUNCEMENTS := @jupyterlab/apputils-extension:announcements

$(VENV)/.lab-quiet: $(VENV)/.runtime-installed
	$(BIN)/jupyter labextension disable --level=sys_prefix "$(ANNOUNCEMENTS)"
	@touch $@

lab: venv $(VENV)/.lab-quiet
	$(BIN)/jupyter lab --ip=$(HOST) --port=$(PORT) --ServerApp.root_dir=notebooks $(LAB_QUIET) $(ROOT_FLAG)

# The browser tests drive Debian's Chromium; install it when we can (root with apt), else they say why they skip.
# fonts-noto-cjk draws the Chinese text in the screenshots (without it Chromium shows boxes).
browser-deps:
	@if [ -x /usr/bin/chromium ] && dpkg -s fonts-noto-cjk >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "Installing Debian's chromium and a CJK font for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    chromium chromium-driver fonts-noto-cjk >/dev/null; \
	elif [ ! -x /usr/bin/chromium ]; then \
	  echo "note: /usr/bin/chromium not found and apt-get unavailable; browser tests will be skipped"; fi

test: venv-test browser-deps
	$(BIN)/python -m pytest -q

lint: venv-test
	$(BIN)/ruff check ragmath tests bench tools

# The explorer is a static page (explorer/, built with the catalogue's strings): the browser computes
# RRF, so any static file server will do, and the folder works from disk too (docs/classroom.md).
explorer: venv
	$(BIN)/python tools/build_explorer.py --out $(EXPLORER_DIR)
	@echo "Serving the RRF k explorer on http://$(HOST):$(EXPLORER_PORT)/ (Chinese: ?lang=zh); Ctrl+C stops it"
	$(BIN)/python -m http.server $(EXPLORER_PORT) --bind $(HOST) --directory $(EXPLORER_DIR)

html: venv-test
	$(BIN)/python tools/build_html.py

bench: venv-test
	$(BIN)/python bench/bench_explorer.py
	$(BIN)/python bench/bench_ablation.py
	$(BIN)/python bench/bench_scale.py

# Not part of `make test`: needs git history; checks out the opening's commit in a temporary worktree.
verify-holdout: venv
	$(BIN)/python tools/verify_holdout.py

# Not part of `make test`: about 5 x 10 minutes. Shows the notebook and browser tests pass on a loaded
# machine (tools/busy_runs.py starts and stops the load itself); the report goes to build/busy_runs.md.
busy-runs: venv-test browser-deps
	$(BIN)/python tools/busy_runs.py --split-streams

clean:
	rm -rf build .pytest_cache .hypothesis
