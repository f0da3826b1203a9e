//go:build !unix

package news

import "time"

// cpuTime is unknown here; benchmarks then report wall-time figures only.
func cpuTime() time.Duration { return 0 }
