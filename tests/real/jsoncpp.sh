#!/bin/sh
# tests/real/jsoncpp.sh - Debian's jsoncpp (C++, exceptions) built by its own CMake
# twice, with the plain compilers and with CC="deepprof cc" CXX="deepprof c++" (a shared
# libjsoncpp.so used by the test programs), and checked through its own test suite
# (ctest: the unit tests and the reader/writer tests): same results, no profile written
# into the source or build trees (the test programs' profiles go to one directory).
# Then jsoncpp_test under deepprof run: same output as the plain build, the library's
# functions in the profile, and every thrown Json::LogicError destroyed in the catching
# test case, not in the throwing Json::Value method.
# Usage: jsoncpp.sh BUILD_DIR WORK_DIR REPO_DIR    Exit: 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"

fetch libjsoncpp >"$work/src.path"
src=$(cat "$work/src.path")

# build DIR CC CXX - jsoncpp configured and built in DIR by CMake.
build() {
	rm -rf "$1"
	CC="$2" CXX="$3" cmake -S "$src" -B "$1" -DCMAKE_BUILD_TYPE=Release \
		-DJSONCPP_WITH_POST_BUILD_UNITTEST=OFF -DBUILD_SHARED_LIBS=ON \
		-DBUILD_STATIC_LIBS=OFF -DBUILD_OBJECT_LIBS=OFF >"$1.cfg.log" 2>&1 ||
		die "configuring jsoncpp with '$2' failed (see $1.cfg.log)"
	cmake --build "$1" -j2 >"$1.build.log" 2>&1 ||
		die "building jsoncpp with '$2' failed (see $1.build.log)"
}
# suite DIR - its test suite's results, one "NAME RESULT" line per test.
suite() {
	# one at a time: two of its tests write the same files into the source tree
	(cd "$1" && ctest -j1 >"$1.ctest.log" 2>&1) || true
	sed -n 's/^ *[0-9]*\/[0-9]* Test *#[0-9]*: \([^ ]*\) .*\(Passed\|Failed\).*/\1 \2/p' \
		"$1.ctest.log" | LC_ALL=C sort
}

build "$work/plain" cc c++
build "$work/deep" "$dp cc" "$dp c++"
suite "$work/plain" >"$work/plain.results"
rm -rf "$work/prof"
mkdir -p "$work/prof"
DEEPPROF_OUTPUT="$work/prof/%e.%p.data" suite "$work/deep" >"$work/deep.results"
[ -s "$work/plain.results" ] || die "the plain build's test suite reported nothing"
grep -q Failed "$work/plain.results" && die "the plain build fails its own tests"
cmp -s "$work/plain.results" "$work/deep.results" ||
	fail "test results differ: $(diff "$work/plain.results" "$work/deep.results" | tr '\n' ' ')"
no_stray "$src"
no_stray "$work/deep"
n=$(find "$work/prof" -name '*.data' | wc -l)
[ "$n" -ge 3 ] || fail "the test suite's programs wrote $n profiles, expected 3 or more"

# jsoncpp_test alone, plain and profiled
"$work/plain/bin/jsoncpp_test" >"$work/plain.out" 2>&1 || die "plain jsoncpp_test failed"
cd "$work/deep"
rm -f jt.data
"$dp" run -o jt.data -- ./bin/jsoncpp_test >deep.out 2>run.log ||
	die "deepprof run jsoncpp_test failed: $(tail -3 run.log)"
cmp -s deep.out "$work/plain.out" || fail "profiled jsoncpp_test printed another output"
functions jt.data >jt.fn || die "cannot read jt.data"
for fn in "Json::Value::type() const" "Json::Reader::parse(char const*, char const*, Json::Value&, bool)" \
	"Json::throwLogicError(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&)"; do
	[ "$(calls_of jt.fn "$fn")" -gt 0 ] || fail "$fn not called in the profile"
done
grep -q "	json_value.cpp:[1-9]" jt.fn || fail "no function placed in json_value.cpp"
# each thrown LogicError is destroyed once, by the test case that caught it
thrown=$(calls_of jt.fn "Json::LogicError::LogicError(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&)")
[ "$thrown" -gt 10 ] || fail "only $thrown LogicErrors constructed"
callers jt.data "Json::LogicError::~LogicError()" >dtor.callers
bad=$(grep -v '::runTestCase()	' dtor.callers || true)
[ -z "$bad" ] || fail "~LogicError charged to a non-catching frame: $bad"
destroyed=$(awk -F'\t' '{ c += $2 } END { print c + 0 }' dtor.callers)
[ "$destroyed" -eq "$thrown" ] || fail "$thrown LogicErrors constructed, $destroyed destroyed"

finish real_jsoncpp "$(wc -l <"$work/plain.results") suites alike, $(wc -l <jt.fn) functions, $thrown LogicErrors caught"
