# One-command set-up: `make run` starts the app, `make test` runs the whole suite offscreen.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test bench corpora bundle clean

# The documentation corpora the knowledge-base benchmarks read (Debian packages): recall on the PostgreSQL
# and git manuals, Chinese and Japanese, and the PDF figure. Installed when missing and apt-get can be used
# (as root, or with sudo that asks no password); otherwise the command to run is printed and those figures
# are skipped.
CORPORA := postgresql-doc-15 git-doc debian-reference-en debian-reference-zh-cn debian-reference-ja

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

corpora:
	@missing=$$(for p in $(CORPORA); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if ! command -v apt-get >/dev/null 2>&1; then \
		echo "Not a Debian system: the knowledge-base benchmarks skip the corpora they lack."; exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then sudo=; elif sudo -n true 2>/dev/null; then sudo="sudo -n"; else \
		echo "To measure recall, install: sudo apt-get install" $$missing; exit 0; fi; \
	echo "Installing the benchmark corpora:" $$missing; \
	$$sudo apt-get install -y -q $$missing >/dev/null || { $$sudo apt-get update -q >/dev/null && \
		$$sudo apt-get install -y -q $$missing >/dev/null; } || \
		echo "Could not install" $$missing "- those figures are skipped."

bench: $(STAMP) corpora
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
