# Two commands for readers (see README):
#   make lab    set up .venv if needed, then open the notebooks in JupyterLab
#   make test   set up .venv if needed, then run the whole test suite
# Both are idempotent: the venv is (re)installed only when requirements.txt or pyproject.toml change.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: lab test notebooks notebooks-quick pretrained evaluate bench lint check-notebooks

$(STAMP): requirements.txt pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check -q -r requirements.txt
	@touch $(STAMP)

lab: $(STAMP)
	$(BIN)/jupyter lab notebooks/

test: $(STAMP)
	$(BIN)/python -m pytest

# --- maintainers ---
notebooks: $(STAMP)          ## execute every notebook in full mode and save the outputs
	$(BIN)/python -m helpers.tools.notebooks execute

notebooks-quick: $(STAMP)    ## execute every notebook in quick mode (nothing is saved)
	$(BIN)/python -m helpers.tools.notebooks execute --quick

check-notebooks: $(STAMP)
	$(BIN)/python -m helpers.tools.notebooks check

pretrained: $(STAMP)         ## retrain all shipped models from scratch (CPU, reproducible)
	$(BIN)/python -m helpers.tools.pretrain

evaluate: $(STAMP)           ## evaluation table of the shipped models
	$(BIN)/python -m helpers.tools.evaluate

bench: $(STAMP)
	$(BIN)/python -m helpers.tools.bench

lint: $(STAMP)
	$(BIN)/ruff check helpers tests notebooks scripts

# --- companion website ---
.PHONY: site
site: $(STAMP)               ## static site of the committed notebooks + widget frames -> site/_build/html
	$(BIN)/python -m helpers.tools.site
