//go:build !unix

package storetest

// cpuSeconds is not measured here: BenchBoardCycle reports 0.
func cpuSeconds() float64 { return 0 }
