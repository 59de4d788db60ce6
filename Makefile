# Two commands for readers (see README):
#   make lab    set up .venv if needed, then open the notebooks in JupyterLab
#   make test   set up .venv if needed, then run the whole test suite
# Both are idempotent: the venv is (re)installed only when requirements.txt or pyproject.toml change.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PIP := $(BIN)/python -m pip install --disable-pip-version-check -q

# torch on Linux: the CPU build. PyPI's Linux wheel of torch==2.13.0 is the CUDA build and pulls
# several GB of nvidia-* packages; these notebooks only need the CPU. In this order:
#   1. whatever this machine already offers (installed, a local wheel via pip's find-links):
#      `pip install --no-index` succeeds at once or fails at once, without the network; --no-deps,
#      because torch's own dependencies (filelock, sympy, ...) need not be local: step 3 adds them;
#   2. otherwise PyTorch's CPU wheel index (TORCH_CPU_INDEX);
#   3. then everything else from requirements.txt (torch==2.13.0 is then already satisfied).
# GPU users opt out with `make lab TORCH_CPU=0` (PyPI's default build). On macOS and Windows PyPI's
# torch is already the CPU build, so step 3 alone is used there.
TORCH_PIN := torch==2.13.0
TORCH_CPU_INDEX ?= https://download.pytorch.org/whl/cpu
OS := $(shell uname -s)
TORCH_CPU ?= $(if $(filter Linux,$(OS)),1,0)

# JupyterLab refuses to start as root (Docker, lab VMs) unless told so; only then is it told.
USER_ID := $(shell id -u)
LAB_FLAGS := $(if $(filter 0,$(USER_ID)),--allow-root)

.PHONY: lab test notebooks notebooks-quick pretrained evaluate bench lint check-notebooks wheels

$(STAMP): requirements.txt pyproject.toml helpers/tools/labsetup.py helpers/tools/lab/overrides.json helpers/tools/lab/custom.css
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
ifeq ($(TORCH_CPU),1)
	@$(PIP) --no-index --no-deps $(TORCH_PIN) 2>/dev/null && echo "torch: 使用本机已有的 (found locally) $(TORCH_PIN)" \
	  || { echo "torch: 从 PyTorch 的 CPU 索引安装 (CPU build from) $(TORCH_CPU_INDEX)"; \
	       $(PIP) --index-url $(TORCH_CPU_INDEX) $(TORCH_PIN); }
endif
	$(PIP) -r requirements.txt
	$(BIN)/python -m helpers.tools.labsetup   # Chinese UI, no news prompt, bundled font: inside $(VENV) only
	@touch $(STAMP)

lab: $(STAMP)
	$(BIN)/jupyter lab $(LAB_FLAGS) notebooks/

# pytest arguments pass through: make test ARGS="tests/test_metrics.py -q" runs one file
test: $(STAMP)
	$(BIN)/python -m pytest $(ARGS)

# --- offline classroom: every wheel `make lab` / `make test` install, for a chosen OS and Python ---
# make wheels                                    this machine's OS and Python -> wheels/
# make wheels WHEELS_OS=windows WHEELS_PYTHON=3.11   the classroom's Windows laptops (prepared here)
WHEELS_OS ?=
WHEELS_PYTHON ?=
wheels: $(STAMP)
	$(BIN)/python -m helpers.tools.wheelhouse --out wheels $(if $(WHEELS_OS),--os $(WHEELS_OS)) $(if $(WHEELS_PYTHON),--python $(WHEELS_PYTHON))

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
site: $(STAMP)               ## static site of the committed notebooks + widget frames + the in-page translator -> site/_build/html
	$(BIN)/python -m helpers.tools.site
