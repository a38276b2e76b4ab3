// ctxcost.go - the Go twin of ctxcost.c for the pprof import test: work() costs 1
// unit under light() and 9 under heavy(); writes a CPU profile to os.Args[1].
package main

import (
	"os"
	"runtime/pprof"
)

var sink uint64

//go:noinline
func work(n int) {
	for i := 0; i < n; i++ {
		sink += uint64(i) * 7
	}
}

//go:noinline
func sharedStep(n int) { work(n) }

//go:noinline
func light() { sharedStep(1) }

//go:noinline
func heavy() { sharedStep(9) }

func main() {
	f, _ := os.Create(os.Args[1])
	pprof.StartCPUProfile(f)
	for r := 0; r < 100000000; r++ {
		light()
		heavy()
	}
	pprof.StopCPUProfile()
	f.Close()
}
