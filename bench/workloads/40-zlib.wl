# zlib: a second real program from Debian's source package: zlib's own minigzip (built
# by zlib's configure --static and Makefile) compressing 8 MB of generated text at
# the default level 6.
label='zlib minigzip -6, 8 MB of text (Debian source)'
pkg='zlib'
prepare='awk -v size=8000000 -f "$BENCH/src/gentext.awk" >text.txt'
build='cp -r "$SRC/." . && CC="$cc" CFLAGS="$cflags -g" ./configure --static && make -s minigzip LDFLAGS="$objs $ldflags"'
exe='minigzip'
args='-c -6 "$input/text.txt"'
real='1'
target='gprofhalf'
