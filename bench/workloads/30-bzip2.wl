# bzip2: a real program from Debian's source package, built by its own Makefile (bzip2
# linked statically with libbz2.a, so gprof sees the library too), compressing 8 MB of
# generated text at -9 to stdout.
label='bzip2 -9, 8 MB of text (Debian source)'
pkg='bzip2'
prepare='awk -v size=8000000 -f "$BENCH/src/gentext.awk" >text.txt'
build='cp -r "$SRC/." . && make -s CC="$cc" CFLAGS="$cflags -g -D_FILE_OFFSET_BITS=64" libbz2.a bzip2.o && $cc $cflags -g -o bzip2 bzip2.o libbz2.a $objs $ldflags'
exe='bzip2'
args='-c -9 "$input/text.txt"'
real='1'
target='gprofhalf'
