package prospector

import (
	"encoding/json"
	"strconv"
)

// JobSourcePoll is the job kind of one poll of one source target (a
// board or a website), run by package sources.
const JobSourcePoll = "sources.poll"

// SourcePollJob is the job that polls one target. Its dedupe key names
// the target, so however many nodes schedule it, one poll of a target is
// queued or running at a time.
func SourcePollJob(targetID int64) *Job {
	payload, _ := json.Marshal(map[string]int64{"target_id": targetID})
	return &Job{Kind: JobSourcePoll, Key: "target:" + strconv.FormatInt(targetID, 10), Payload: payload, MaxAttempts: 5}
}
