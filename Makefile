# Makefile - the developer's entry points, wrapping CMake and CTest:
#   make                      build into ./build (tool, runtime, tests)
#   make install PREFIX=DIR   install bin/deepprof, lib/libdeepprof.{a,so}, headers, man page
#   make check                deps; tools/checksrc and check-format; -Werror build + the CTests
#                             but the slow real programs (label real_slow); ASan/UBSan
#                             unit and integration tests; TSan unit tests; a clang libFuzzer
#                             run of the reader (DP_FUZZ_SECONDS, default 60)
#   make check-real           the real programs from Debian's sources, the slow ones too
#                             (tests/real: bzip2, jsoncpp, zstd, grep; tens of minutes)
#   make demo                 deps, build, profile examples/wordfreq with deepprof run
#   make bench                benchmarks (bench/run), results in docs/PERFORMANCE.md
#   make clean                remove the build trees
BUILD ?= build
BUILD_ASAN ?= build-asan
BUILD_TSAN ?= build-tsan
BUILD_FUZZ ?= build-fuzz
PREFIX ?= /usr/local
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE ?= cmake
CTEST ?= ctest
DP_FUZZ_SECONDS ?= 60
export DP_FUZZ_SECONDS

.PHONY: all build install check check-main check-asan check-tsan check-fuzz check-real deps demo \
	bench clean

all: build

$(BUILD)/CMakeCache.txt:
	$(CMAKE) -S . -B $(BUILD)

build: $(BUILD)/CMakeCache.txt
	$(CMAKE) --build $(BUILD) -j $(JOBS)

install: build
	$(CMAKE) --install $(BUILD) --prefix "$(PREFIX)"

deps:
	scripts/install-deps

check: deps
	$(MAKE) check-main
	$(MAKE) check-asan
	$(MAKE) check-tsan
	$(MAKE) check-fuzz
	@echo "make check: all passed"

check-main:
	tools/checksrc --strict
	tools/check-format
	$(CMAKE) -S . -B $(BUILD) -DDP_WERROR=ON
	$(CMAKE) --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && $(CTEST) --output-on-failure -j $(JOBS) -LE real_slow

# Every real program of tests/real (label real), built by its own build system twice and
# checked against its plain build; the slow ones (label real_slow) only here. One at a
# time: each builds with two jobs.
check-real: deps build
	cd $(BUILD) && $(CTEST) --output-on-failure -L real

# The tools, unit and integration tests under ASan/UBSan (the runtime is never sanitized:
# it lives inside the profiled programs).
check-asan:
	$(CMAKE) -S . -B $(BUILD_ASAN) -DDP_WERROR=ON -DDP_SANITIZE=ON
	$(CMAKE) --build $(BUILD_ASAN) -j $(JOBS)
	cd $(BUILD_ASAN) && $(CTEST) --output-on-failure -j $(JOBS) -L 'unit|integration'

# The unit tests under ThreadSanitizer: the load's threads (dp_par_split, the arenas'
# prefault helper, the analysis's side thread) and the session's background thread. Not
# the integration tests, which test processes and timing: under TSan a CGI server that
# has answered page=quit (its pipes removed) takes seconds to exit, and integ_cgi, which
# counts the servers right after starting the next one, still finds it.
check-tsan:
	$(CMAKE) -S . -B $(BUILD_TSAN) -DDP_WERROR=ON -DDP_TSAN=ON
	$(CMAKE) --build $(BUILD_TSAN) -j $(JOBS)
	cd $(BUILD_TSAN) && $(CTEST) --output-on-failure -j $(JOBS) -L unit

# The reader's libFuzzer target for a bounded time, with clang.
check-fuzz:
	CC=clang $(CMAKE) -S . -B $(BUILD_FUZZ) -DDP_WERROR=ON -DDP_FUZZ=ON
	$(CMAKE) --build $(BUILD_FUZZ) -j $(JOBS) --target fuzz_reader
	cd $(BUILD_FUZZ) && $(CTEST) --output-on-failure -L fuzz

demo: deps build
	examples/demo $(BUILD)

bench: build
	BUILD=$(BUILD) bench/run

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_TSAN) $(BUILD_FUZZ)
