# Two commands: `make run` and `make test`. Both create .venv with plain python3 and install requirements.txt.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# llama.cpp is built for this CPU (-march=native), except where the CPU lists AMX: a virtual CPU that lists it
# without enabling it kills the process on the first long prompt (`ldtilecfg`), so there the CPU's AVX-512
# extensions are named one by one and AMX is left out. A CMAKE_ARGS of your own wins (e.g. -DGGML_CUDA=on).
ifneq ($(shell grep -m1 -ow amx_tile /proc/cpuinfo 2>/dev/null),)
export CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX512=ON -DGGML_AVX512_VNNI=ON -DGGML_AVX512_VBMI=ON \
	-DGGML_AVX512_BF16=ON -DGGML_AVX_VNNI=ON
endif

.PHONY: install run test test-full browser eval-model perf doctor

$(STAMP): requirements.txt
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip >/dev/null
	$(BIN)/python -m pip install -r requirements.txt
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/python app.py

# The real-browser test needs Debian's chromium; installed here when missing (root only), never a browser download.
browser:
	@test -x /usr/bin/chromium || { [ "$$(id -u)" = 0 ] && (apt-get update -q && apt-get install -y -q chromium) >/dev/null 2>&1; } || echo "chromium not installed: the browser test will be skipped"

test: install browser
	$(BIN)/python -m pytest

test-full: install browser
	$(BIN)/python -m pytest --full

doctor: install
	$(BIN)/python -m dreaming_agent doctor

eval-model:
	$(PY) scripts/eval_model.py

perf: install
	$(BIN)/python -m dreaming_agent perf --sizes 1000,10000,100000 --out out/perf
