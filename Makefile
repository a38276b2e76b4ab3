# Makefile - the developer's entry points, wrapping CMake and CTest:
#   make                      build into ./build (tool, runtime, tests)
#   make install PREFIX=DIR   install bin/deepprof, lib/libdeepprof.{a,so}, headers, man page
#   make check                deps; tools/checksrc and check-format; -Werror build + the CTests
#                             but the slow real programs (label real_slow); ASan/UBSan
#                             unit and integration tests; TSan unit tests; clang libFuzzer
#                             runs of the reader (DP_FUZZ_SECONDS, default 60), the query
#                             parser and the CGI request decoders (half that each) and the
#                             importers (a quarter each)
#   make check-real           the real programs from Debian's sources, the slow ones too
#                             (tests/real: bzip2, jsoncpp, zstd, grep, sqlite3; tens of
#                             minutes)
#   make demo                 deps, build, profile examples/wordfreq with deepprof run
#   make bench                benchmarks (bench/run), results in docs/PERFORMANCE.md
#   make clean                remove the build trees
BUILD ?= build
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

# Each stage is one of the builds of CMakePresets.json (dev, asan, tsan, fuzz: their
# build trees are build, build-asan, build-tsan and build-fuzz), so that `make check` and
# `cmake --preset X` are one definition of each build.
check-main:
	tools/checksrc --strict
	tools/check-format
	$(CMAKE) --preset dev
	$(CMAKE) --build --preset dev -j $(JOBS)
	$(CTEST) --preset dev -j $(JOBS)

# Every real program of tests/real (label real), built by its own build system twice and
# checked against its plain build; the slow ones (label real_slow) only here. One at a
# time: each builds with two jobs.
check-real: deps build
	cd $(BUILD) && $(CTEST) --output-on-failure -L real

# The tools and the unit tests under ASan/UBSan, with the assert()ed invariants, and the
# integration tests labelled asan: every front end, tool and CGI test, and each program
# once (gcc -O2) plus a few with clang -O0 (the runtime is never sanitized: it lives
# inside the profiled programs; every program under every compiler runs in check-main).
check-asan:
	$(CMAKE) --preset asan
	$(CMAKE) --build --preset asan -j $(JOBS)
	$(CTEST) --preset asan -j $(JOBS)

# The unit tests under ThreadSanitizer: the load's threads (dp_par_split, the arenas'
# prefault helper, the analysis's side thread) and the session's background thread. Not
# the integration tests, which test processes and timing: under TSan a CGI server that
# has answered page=quit (its pipes removed) takes seconds to exit, and integ_cgi, which
# counts the servers right after starting the next one, still finds it.
check-tsan:
	$(CMAKE) --preset tsan
	$(CMAKE) --build --preset tsan -j $(JOBS)
	$(CTEST) --preset tsan -j $(JOBS)

# The libFuzzer targets for a bounded time, with clang: the reader (DP_FUZZ_SECONDS), the
# query parser and the CGI program's request decoders (half that each), the importers (a
# quarter each).
check-fuzz:
	$(CMAKE) --preset fuzz
	$(CMAKE) --build --preset fuzz -j $(JOBS)
	$(CTEST) --preset fuzz

demo: deps build
	examples/demo $(BUILD)

bench: build
	BUILD=$(BUILD) bench/run

clean:
	rm -rf $(BUILD) build-asan build-tsan build-fuzz
