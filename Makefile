# One-command set-up: `make run` starts the app, `make test` runs the whole suite offscreen.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test bench bundle clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is needed ($(PYTHON) not found)."; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m tinyrag_desktop

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q

bench: $(STAMP)
	@for b in benchmarks/bench_*.py; do echo "== $$b"; QT_QPA_PLATFORM=offscreen $(PY) $$b || exit 1; done

# One-folder bundle in dist/tinyrag-desktop/ (a .app beside it on macOS); see packaging/README.md.
bundle: $(STAMP)
	$(PY) -m pip install -q -e '.[bundle]'
	$(PY) -m PyInstaller --noconfirm --clean --log-level WARN packaging/tinyrag-desktop.spec
	@du -sh dist/tinyrag-desktop

# Checks the BUILT bundle (run `make bundle` first): window screenshot, ask, every tool, kb, nanogo and the
# children of a killed app, all offline (packaging/README.md, "The smoke test").
.PHONY: smoke
smoke: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) packaging/smoke_test.py

clean:
	rm -rf $(VENV) build dist .pytest_cache
