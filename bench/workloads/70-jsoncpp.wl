# jsoncpp: the unit tests of Debian's jsoncpp (C++, exceptions; a shared libjsoncpp.so),
# built by its own CMake as tests/real/jsoncpp.sh builds them, one run of jsoncpp_test:
# a test suite that creates many contexts (about 78,000) with few calls each (about
# 234,000), in a few milliseconds.
label="jsoncpp's unit tests (jsoncpp_test, Debian source)"
pkg='libjsoncpp'
build='CC="$cc" CXX="$cxx" CFLAGS="$cflags" CXXFLAGS="$cflags" LDFLAGS="$objs $ldflags" cmake -S "$SRC" -B . -DCMAKE_BUILD_TYPE=Release -DJSONCPP_WITH_POST_BUILD_UNITTEST=OFF -DBUILD_SHARED_LIBS=ON -DBUILD_STATIC_LIBS=OFF -DBUILD_OBJECT_LIBS=OFF && cmake --build . -j2 --target jsoncpp_test'
exe='bin/jsoncpp_test'
real='1'
target='ratio 3'
