#!/bin/sh
# runtime/check-light.sh LIB - the code the stubs' slow path runs (dp_rt_stub_light and
# what it calls: rt_hooks.c, rt_graph.c, rt_stub.c, rt_trouble.c, rt_tab.c) may use no vector or x87
# register, since the stubs' trampoline saves only the general ones
# (runtime/rt_stub_x86_64.S): fail if those members of LIB (libdeepprof.a) touch one, or
# call anything of libc but system-call wrappers, or a function of the runtime outside
# them other than dp_rt_thread_start (reached only through dp_rt_stub_full, with the
# whole state saved). An x86-64 check; elsewhere there are no stubs.
set -eu
lib=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
members="rt_hooks.c.o rt_graph.c.o rt_stub.c.o rt_trouble.c.o rt_tab.c.o"
ar x "$lib" $members
allowed="mmap munmap mremap write process_vm_readv getpid __errno_location
_GLOBAL_OFFSET_TABLE_ dp_rt_g dp_rt_tls dp_rt_thread_start"
defined=$(nm --defined-only $members | awk 'NF == 3 { print $3 }' | sort -u)
bad=0
for s in $(nm -u $members | awk '$1 == "U" { print $2 }' | sort -u); do
	case " $(echo $allowed) $(echo $defined) " in
	*" $s "*) ;;
	*) echo "check-light: the stubs' slow path may call $s" >&2; bad=1 ;;
	esac
done
if objdump -d --no-show-raw-insn $members | grep -E '%(x|y|z)mm|%st|%k[0-7]|%mm[0-7]' >regs; then
	echo "check-light: vector or x87 registers used:" >&2
	head -5 regs >&2
	bad=1
fi
exit $bad
