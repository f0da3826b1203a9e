//go:build unix

package news

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used: on a machine shared
// with other work, throughput per CPU second says more than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
