# The two commands of the README:
#   make demo   install what is missing, build (Release), plan the bundled example
#   make test   the same set-up, then the whole test suite (Release with -Werror, then ASan+UBSan)
JOBS ?= $(shell nproc)
BUILD ?= build
SAN_BUILD ?= build-san
EXAMPLE ?= examples/b300-dual-plane.yaml
PREFIX ?= /usr/local

.PHONY: deps configure configure-sanitize build build-all install demo test test-release test-sanitize fuzz bench golden docs clean

deps:
	@bash scripts/setup.sh

configure: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DCT_WERROR=ON >/dev/null

# The binary alone (make demo, make install); build-all adds the tests and the benchmarks.
build: configure
	@cmake --build $(BUILD) -j $(JOBS) --target clustertwin

build-all: configure
	@cmake --build $(BUILD) -j $(JOBS)

# PREFIX/bin/clustertwin and PREFIX/share/clustertwin/{catalog,examples}; DESTDIR=/stage honoured.
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

demo: build
	./$(BUILD)/src/cli/clustertwin plan $(EXAMPLE)
	./$(BUILD)/src/cli/clustertwin trace 'GET https://api.example.com/v1/models' examples/platform/manifests \
	  --from inside --dns examples/platform/dns/named.conf --spec examples/platform/cluster.yaml -H 'Cookie: _oauth2_proxy=session'
	./$(BUILD)/src/cli/clustertwin trace 'GET https://api.example.com/v1/models' examples/platform/manifests \
	  --from outside --dns examples/platform/dns/named.conf --spec examples/platform/cluster.yaml
	./$(BUILD)/src/cli/clustertwin trace 'GET https://api.example.com/v1/models' examples/platform/manifests \
	  --from inside --dns examples/platform/dns/named.conf --spec examples/platform/cluster.yaml -H 'Cookie: _oauth2_proxy=session' \
	  --dead-node node-0

test-release: build-all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

configure-sanitize: deps
	@cmake -S . -B $(SAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCT_WERROR=ON -DCT_SANITIZE=ON -DCT_BENCH=OFF >/dev/null

test-sanitize: configure-sanitize
	@cmake --build $(SAN_BUILD) -j $(JOBS)
	cd $(SAN_BUILD) && ctest --output-on-failure -j $(JOBS)

test: test-release test-sanitize

# The long fuzz run (not part of make test): FUZZ_CASES mutants of every input kind under ASan+UBSan.
FUZZ_CASES ?= 1000
fuzz: configure-sanitize
	@cmake --build $(SAN_BUILD) -j $(JOBS) --target input_fuzz_test clustertwin
	cd $(SAN_BUILD) && CT_FUZZ_CASES=$(FUZZ_CASES) ctest --output-on-failure -j $(JOBS) -R '^Kinds/InputFuzz\.'

bench: build-all
	@for b in $(BUILD)/bench/bench_*; do $$b --benchmark_min_time=0.5; done

# Rewrite the golden files from the current build (review the diff before committing).
golden: build-all
	CT_UPDATE_GOLDEN=1 ./$(BUILD)/tests/golden/golden_test
	cd $(BUILD) && CT_UPDATE_GOLDEN=1 ctest -R cli_golden -j $(JOBS) >/dev/null

# Regenerate the architecture picture from its source.
docs: deps
	dot -Tsvg docs/architecture.dot -o docs/architecture.svg

clean:
	rm -rf $(BUILD) $(SAN_BUILD)
