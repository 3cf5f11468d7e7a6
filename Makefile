# The two commands that matter: `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
API_PORT ?= 8765
DASH_PORT ?= 8501

.PHONY: setup run test test-fast lint docs screenshots bench fuzz store serve dashboard retabulate clean-store plotly-js

$(VENV)/.installed: requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -r requirements-dev.txt
	touch $@

setup: $(VENV)/.installed

# Build the embedded store (real data where ../shared/data has it, simulated for the rest),
# issue a local key, then serve the API and the dashboard.
run: setup
	$(PY) -m scripts.run --api-port $(API_PORT) --dash-port $(DASH_PORT)

store: setup
	$(PY) -m scripts.run --build-only

# The whole suite on the embedded SQLite store, then the store and HTTP tests again on
# PostgreSQL (each test module skips with one line when PostgreSQL is not reachable; those that
# read the demo or real-data store, SQLite files in either pass, run in the first only). Both passes
# run on two workers, a module on one (its fixtures, PostgreSQL databases and Redis databases are
# its own), in the order tests/conftest.py gives (the longest files first); the real-data store is
# built once for both passes, in the background, in a temporary folder removed at the end.
PG_SUITE := tests/server/store tests/server/http tests/server/endpoints tests/server/test_keys.py \
            tests/production
XDIST := -n 2 --dist loadfile --no-loadscope-reorder

test: setup lint docs
	@real=$$(mktemp -d) && trap 'rm -rf "$$real"' EXIT && set -x && \
	SPORTS_TEST_REAL_FOLDER=$$real $(PY) -m pytest $(XDIST) --durations=15 && \
	SPORTS_TEST_REAL_FOLDER=$$real SPORTS_TEST_DATABASE=postgres \
	  $(PY) -m pytest $(XDIST) -p no:cacheprovider --durations=10 $(PG_SUITE)

# The documentation site (docs/, mkdocs.yml) into site/, warnings as errors.
docs: setup
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --quiet

# The dashboard's pictures in docs/img, taken by the browser tests over the demo store.
screenshots: setup
	SPORTS_DOCS_SHOTS=docs/img $(PY) -m pytest -p no:cacheprovider -q tests/dashboard/test_browser.py \
	  -k every_page_draws

# Types (strict) for the service and the dashboard; lint rules (ruff.toml) everywhere.
lint: setup
	$(VENV)/bin/mypy server services components app.py app_pages
	$(VENV)/bin/ruff check .

test-fast: setup
	$(PY) -m pytest -m "not slow and not browser and not realdata"

bench: setup
	$(PY) bench/api.py
	$(PY) bench/models.py
	$(PY) bench/dashboard.py
	$(PY) bench/load.py
	$(PY) bench/growth.py

fuzz: setup
	FUZZ_EXAMPLES=100 $(PY) -m pytest tests/fuzz

serve: setup
	$(PY) -m server serve --port $(API_PORT)

dashboard: setup
	$(VENV)/bin/streamlit run app.py --server.port $(DASH_PORT) --server.headless true

# plotly.js's cartesian build, which draws the dashboard's charts (components/chart_view.py), at the
# plotly.js release the pinned plotly package names, from npm into static/ with its licence. Run it
# after upgrading plotly; the files are committed, so neither `make run` nor `make test` needs npm.
plotly-js: setup
	@version=$$($(PY) -c "from plotly.offline import get_plotlyjs_version; print(get_plotlyjs_version())") && \
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	(cd "$$tmp" && npm pack --silent "plotly.js-cartesian-dist-min@$$version" >/dev/null && tar xzf ./*.tgz) && \
	cp "$$tmp/package/plotly-cartesian.min.js" static/plotly-cartesian.min.js && \
	cp "$$tmp/package/LICENSE" static/plotly-cartesian.LICENSE && \
	echo "static/plotly-cartesian.min.js: plotly.js $$version (cartesian)"

retabulate: setup
	$(PY) -m server retabulate

clean-store:
	rm -f data/sports.db data/sports.db-wal data/sports.db-shm
