# RAG Lab: two commands do all the set-up. `make lab` to study, `make test` to check.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   := 127.0.0.1
PORT   ?= 8888
EXPLORER_PORT ?= 8866
EXPLORER_OPTS ?=
# en: notebooks/rrf_explorer.ipynb; zh: the Chinese edition's notebooks/zh/rrf_explorer.ipynb
EXPLORER_LANG ?= en

.PHONY: help lab test venv venv-test browser-deps lint explorer html bench verify-holdout clean

help:
	@echo "make lab       create .venv, install ragmath and the notebooks' packages, open JupyterLab on notebooks/"
	@echo "make test      create/update .venv with the test extra and run the whole suite (notebooks and browser too)"
	@echo "make explorer  serve the RRF k explorer as a standalone Voila page on $(HOST):$(EXPLORER_PORT)"
	@echo "               (EXPLORER_LANG=zh serves the Chinese explorer, notebooks/zh/rrf_explorer.ipynb)"
	@echo "make html      execute every notebook and write HTML copies under build/html/"
	@echo "make bench     run the benchmarks (explorer redraw time; ragmath vs pytrec_eval and ranx at scale)"
	@echo "make verify-holdout  re-run the holdout's one opening at its recorded commit; check the stored hash"

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

# config/voila.py: idle kernels are culled and at most 30 are kept (see the file to change them).
EXPLORER_NOTEBOOK_en := notebooks/rrf_explorer.ipynb
EXPLORER_NOTEBOOK_zh := notebooks/zh/rrf_explorer.ipynb

# Preheated kernels (config/voila.py, rule 5): EXPLORER_POOL kernels start and run the explorer when
# the server starts, within the cap (30); EXPLORER_POOL=0 starts a kernel per page load instead.
EXPLORER_POOL ?= 30
EXPLORER_PREHEAT := $(if $(filter-out 0,$(EXPLORER_POOL)),--VoilaConfiguration.preheat_kernel=True \
  --VoilaConfiguration.default_pool_size=$(EXPLORER_POOL))

explorer: venv
	$(if $(EXPLORER_NOTEBOOK_$(EXPLORER_LANG)),,$(error EXPLORER_LANG must be en or zh, got '$(EXPLORER_LANG)'))
	$(BIN)/voila $(EXPLORER_NOTEBOOK_$(EXPLORER_LANG)) --no-browser --Voila.ip=$(HOST) --Voila.port=$(EXPLORER_PORT) \
	  --Voila.config_file_paths=config $(EXPLORER_PREHEAT) $(EXPLORER_OPTS)

html: venv-test
	$(BIN)/python tools/build_html.py

bench: venv-test
	$(BIN)/python bench/bench_explorer.py
	$(BIN)/python bench/bench_scale.py

# Not part of `make test`: needs git history; checks out the opening's commit in a temporary worktree.
verify-holdout: venv
	$(BIN)/python tools/verify_holdout.py

clean:
	rm -rf build .pytest_cache .hypothesis
