# The interface of the project: CI and people call these targets, nothing else.
#   make install   pinned uv in .tools/, then the locked environment in .venv (only when the lock changed)
#   make run       the embedded stack (SQLite, Tansu, SecantusDB, redis-server) and all three services
#   make stop      stop a make run of this checkout left running elsewhere (its terminal gone too)
#   make test      unit, integration and e2e tests (MariaDB on :3306 and Redis on :6379 must be up;
#                  TEST_WORKERS=2 processes, then the solo tests alone)
#   make test-slow the slow suites (reliability, load, fuzzing); CI runs it after make test
#   make lint      ruff and mypy
#   make token USER=1001 [ROLE=ADMIN]   a development JWT, printed as the last line
#   make migrate   the command store to the newest schema (MYSQL_URL, default the make-run SQLite file)
#   make seed      migrate, then load the sample catalog (infra/seed) idempotently through the command layer
#   make eval      answer citations and retrieval quality on infra/seed/queries-dev.jsonl (QUERIES=path,
#                  CATALOG=dir, AS_OF=YYYY-MM-DD)
#   make calibrate-verified  verified-answer matching: paraphrases served, near-misses refused
#   make calibrate-relevance the relevance gate's evidence per question (QUERIES=path)
#   make question-bank       write the relevance gate's labelled questions from BANK_SETS
#   make eval-sets the search evaluation of every set of infra/seed/eval-sets.toml, against a baseline
#   make eval-chat the whole answering pipeline (retrieval-only) on the same queries: cited items, leaks
#   make clean     remove .run/ (the data and logs of make run)
#   make jobs      the operations jobs: schedules, next runs, history (RUN=name runs one now)
#   make rebuild   empty the MongoDB projections and republish everything from the command store
#   make feedback-export [FROM=YYYY-MM-DD TO=YYYY-MM-DD RATING=down OUT=feedback.jsonl]
#                  users' ratings of answers with their questions and answers, as JSONL
#   make up        docker compose: build the images, start the whole stack (needs Docker and .env)
#   make down      docker compose: stop and remove the containers (volumes are kept)
#   make logs      docker compose: follow the logs (SERVICES="chatbot-api query-sync" to narrow)
#   make bench     measured figures vs bare baselines (MariaDB on :3306): table + bench/results/latest.json

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3.11
UV_VERSION := 0.13.9
TOOLS := .tools
UV := $(TOOLS)/bin/uv
UV_STAMP := $(TOOLS)/.uv-$(UV_VERSION)
VENV := .venv
PY := $(VENV)/bin/python
INSTALL_STAMP := $(VENV)/.installed
PROJECT_FILES := uv.lock pyproject.toml $(wildcard */pyproject.toml services/*/pyproject.toml infra/*/pyproject.toml)
SRC_DIRS := shared/src services/chatbot-api/src services/command-api/src services/query-sync/src infra/devstack/src
SQLITE_URL := sqlite+aiosqlite:///$(CURDIR)/.run/data/techai.db

empty :=
space := $(empty) $(empty)
ROLE ?= USER
PYTEST_ARGS ?=

.PHONY: help install run stop test test-slow lint token migrate seed eval eval-chat eval-search eval-sets clean jobs rebuild feedback-export calibrate-verified calibrate-relevance question-bank up down logs bench

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-8s %s\n", $$1, $$2}'

install: $(INSTALL_STAMP) ## install the locked environment into .venv (idempotent)

$(UV_STAMP):
	test -x $(TOOLS)/bin/pip || $(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet uv==$(UV_VERSION)
	touch $@

# Re-sync only when the lock or a pyproject changed (or .venv was removed with its stamp).
$(INSTALL_STAMP): $(PROJECT_FILES) $(UV_STAMP)
	UV_PYTHON_DOWNLOADS=never $(UV) sync --frozen
	touch $@

run: install ## start the embedded stack and all services; Ctrl-C stops everything
	exec $(PY) -m devstack.run --root "$(CURDIR)"

# No `install` prerequisite: re-syncing .venv under a running stack is the last thing a stop needs.
stop: ## stop the make run of this checkout from another terminal (its pid files in .run/pids)
	$(PY) -m devstack.run --root "$(CURDIR)" --stop

# PYTEST_ARGS replaces the test paths: `make test PYTEST_ARGS=tests/unit/test_x.py` runs that file.
# TEST_WORKERS pytest processes share the tests, a file at a time (its module fixtures start once),
# in collection order (the end-to-end files, the longest, first); then the `solo` tests run alone:
# they hold a whole make run to a time bound that a second worker's load would break.
TEST_WORKERS ?= 2
test: install ## unit, integration and e2e tests, without the slow suites (CI runs both)
	$(VENV)/bin/pytest -p no:cacheprovider -m "not slow and not solo" -n $(TEST_WORKERS) \
		--dist loadfile --no-loadscope-reorder $(or $(PYTEST_ARGS),tests)
	$(VENV)/bin/pytest -p no:cacheprovider -m "solo and not slow" $(or $(PYTEST_ARGS),tests) || [ $$? -eq 5 ]

# pytest exits 5 when it selects no test: no slow suite is not a failure.
test-slow: install ## the slow suites: reliability under faults, load invariant, API fuzzing
	$(VENV)/bin/pytest -p no:cacheprovider -m slow $(or $(PYTEST_ARGS),tests) || [ $$? -eq 5 ]

lint: install ## ruff and mypy
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

# USER is also the login name in the environment: only a USER given on the command line counts.
token: install ## print a development JWT: make token USER=1001 [ROLE=ADMIN]
ifneq ($(origin USER),command line)
	@echo "usage: make token USER=<user id> [ROLE=USER|ADMIN]" >&2; exit 2
endif
	@$(PY) -m devstack.token --user "$(USER)" --role "$(ROLE)"

migrate: install ## migrate the command store (MYSQL_URL, default the make-run SQLite file)
	MYSQL_URL="$${MYSQL_URL:-$(SQLITE_URL)}" $(PY) -m techai_shared.db.migrate

seed: install ## load the sample catalog into the command store (idempotent; MYSQL_URL as for migrate)
	MYSQL_URL="$${MYSQL_URL:-$(SQLITE_URL)}" $(PY) -m command_api.seed --dir infra/seed

QUERIES ?= infra/seed/queries-dev.jsonl
# The catalog the queries are about, and the day they are answered as of (contests' statuses follow
# it): the sample and its labelled sets are written as of 2026-11-22; each catalog of
# infra/seed/catalogs/ names its own day in its README (portal-a 2026-11-22, portal-b 2027-03-10).
CATALOG ?= infra/seed
AS_OF ?= 2026-11-22

# make eval prints the answering pipeline's figures, then the search's; its last line stays
# `recall@5=<x> mrr=<y> leaks=<n>` for scripts.
eval: eval-chat eval-search ## both evaluations below on labelled queries (QUERIES=path)

calibrate-relevance: install ## the relevance gate's evidence and deciding rule per question (QUERIES=path, or QUESTION="...")
	$(PY) -m devstack.evaluate --evidence --queries "$(QUERIES)" --seed-dir "$(CATALOG)" --as-of "$(AS_OF)" \
		$(if $(QUESTION),--question "$(QUESTION)")

# The labelled question sets the relevance gate's question bank is written from, and general
# questions alone (queries-general-*: everyday life, money and work, programming, computing).
# `make eval` and `make calibrate-relevance` leave the measured set's own questions out of the bank.
BANK_SETS = $(addprefix infra/seed/queries-,$(addsuffix .jsonl,dev holdout holdout-2 test test-a test-b test-c test-d test-e test-f test-g test-h test-i test-j test-k test-l test-m test-n test-o test-p test-q test-r test-s test-t test-u test-v test-w test-x test-y test-z test-aa test-ab test-ac test-ad test-ae test-af test-ag test-ah test-ai test-aj test-ak test-al general-1 general-2 general-3 general-4))

question-bank: install ## write chatbot-api's question bank (the relevance gate's labelled questions) from BANK_SETS
	$(PY) -m devstack.question_bank $(BANK_SETS)

calibrate-verified: install ## verified-answer matching on its labelled paraphrases and near-misses (tune/check; JUDGE=1 also through the model judge on a local server)
	$(PY) -m devstack.calibrate_verified $(if $(JUDGE),--judge)

eval-search: install ## recall@5/MRR of catalog search (QUERIES=path), temporary SecantusDB
	$(PY) -m devstack.evaluate --queries "$(QUERIES)" --seed-dir "$(CATALOG)" --as-of "$(AS_OF)"

eval-sets: install ## every set of infra/seed/eval-sets.toml in one run, against eval-baseline.json (ARGS="--only dev,AM --leave-items-out --write-baseline")
	$(PY) -m devstack.eval_sets $(ARGS)

eval-chat: install ## share of queries whose expected items the answers cite, per kind, and leaks
	$(PY) -m devstack.evaluate_chat --queries "$(QUERIES)" --seed-dir "$(CATALOG)" --as-of "$(AS_OF)"

clean: ## remove .run/ (make run's data and logs)
	rm -rf .run

RUN ?=

jobs: install ## list the jobs and their last runs; RUN=<job> runs one now (MYSQL_URL as for migrate)
	MYSQL_URL="$${MYSQL_URL:-$(SQLITE_URL)}" $(PY) -m command_api.ops jobs $(if $(RUN),run "$(RUN)",list)

feedback-export: install ## users' ratings with their exchanges as JSONL: FROM=, TO= (days), RATING=, OUT=
	MYSQL_URL="$${MYSQL_URL:-$(SQLITE_URL)}" $(PY) -m command_api.ops feedback-export \
		$(if $(FROM),--from "$(FROM)") $(if $(TO),--to "$(TO)") $(if $(RATING),--rating "$(RATING)") \
		--out "$(or $(OUT),feedback.jsonl)"

rebuild: install ## empty the MongoDB projections and republish them from the command store
	MYSQL_URL="$${MYSQL_URL:-$(SQLITE_URL)}" $(PY) -m command_api.ops rebuild-projections --wait 300

COMPOSE ?= docker compose
SERVICES ?=

up: ## build the images and start the docker compose stack (Docker, and a .env from .env.example)
	@test -f .env || { echo "no .env: cp .env.example .env and fill in the secrets" >&2; exit 2; }
	$(COMPOSE) up --build --detach --wait

down: ## stop the docker compose stack (the named volumes keep the data; add -v by hand to drop them)
	$(COMPOSE) down

logs: ## follow the docker compose logs (SERVICES="chatbot-api query-sync" for some)
	$(COMPOSE) logs --follow --tail=200 $(SERVICES)

BENCH_ARGS ?=

bench: install ## measure sync, chat, retrieval, session search and memory against bare baselines (15-25 min)
	$(PY) -m devstack.bench --root "$(CURDIR)" $(BENCH_ARGS)
