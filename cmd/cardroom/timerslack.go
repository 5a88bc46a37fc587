package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"
)

// The timer slack (docs/server.md, "The runtime's monitor and the timer
// slack").
//
// Go's runtime has a monitor thread, sysmon, which sleeps 20 µs between
// its checks while any goroutine runs, and which the first system call
// after every idle spell wakes again at that period. A room serving
// thousands of moves a second goes idle between moves thousands of times
// a second, so sysmon woke about 13,000 times a second, each wake-up a
// context switch: 14% of the server's CPU at 2,000 tables at one move a
// second. The kernel's timer slack lets a thread's timed sleeps end up to
// that much late, so that it can serve several with one interrupt; with
// the default 5 ms, sysmon wakes at most a few hundred times a second,
// and every other timed sleep of the runtime (timers, the network
// poller's waits while every processor is idle) may also end that much
// late. Nothing in a card room needs its timers to the millisecond.
//
// A thread's slack is inherited by the threads it starts and kept across
// execve, but a thread may set only its own (another's needs
// CAP_SYS_NICE), and sysmon starts before main. So serve sets the slack on
// its own thread and executes its binary again, once: every thread of the
// new process, sysmon included, has it. Under systemd, TimerSlackNSec=
// gives the process its slack without that step (serve then finds it set).

// slackEnv marks the process that serve executed again with its slack
// set, so that it never does it twice (a kernel may refuse a slack, and
// report another: a real-time thread's is 0).
const slackEnv = "CARDROOM_TIMER_SLACK_EXEC"

// maxTimerSlack bounds -timer-slack: more would let turn timers and the
// store's commit window run late by a noticeable amount.
const maxTimerSlack = 50 * time.Millisecond

// mayReexec is set by main only: tests run runServe in their own process,
// which must never be replaced.
var mayReexec bool

// checkTimerSlack range-checks -timer-slack.
func checkTimerSlack(d time.Duration) error {
	if d < 0 || d > maxTimerSlack {
		return fmt.Errorf("-timer-slack %v: want 0 (leave the system's) to %v", d, maxTimerSlack)
	}
	return nil
}

// slackOutcome says what ensureTimerSlack did, for the log.
type slackOutcome struct {
	Slack   time.Duration // the process's slack now (that of the calling thread)
	Reexecd bool          // this process is the one executed again with it
	Err     error         // why the slack could not be set (the room runs anyway)
}

// ensureTimerSlack gives the process the timer slack want: if its thread's
// slack differs and this process was not already executed again for it,
// it sets its own thread's slack and executes the binary again with the
// same arguments (it does not return then). want 0 leaves the system's.
// Where timer slack does not exist (other systems), it does nothing.
func ensureTimerSlack(want time.Duration, reexec bool) slackOutcome {
	marked := os.Getenv(slackEnv) != ""
	if marked {
		os.Unsetenv(slackEnv) // not for any process this one starts
	}
	cur, err := timerSlack()
	if errors.Is(err, errors.ErrUnsupported) {
		return slackOutcome{}
	}
	if err != nil || want == 0 {
		return slackOutcome{Slack: cur, Reexecd: marked, Err: err}
	}
	if cur == want {
		return slackOutcome{Slack: cur, Reexecd: marked}
	}
	if marked {
		return slackOutcome{Slack: cur, Reexecd: true, Err: fmt.Errorf("the kernel kept a slack of %v, not %v", cur, want)}
	}
	if !reexec {
		return slackOutcome{Slack: cur}
	}
	err = execWithTimerSlack(want, slackEnv+"="+strconv.FormatInt(int64(want), 10))
	return slackOutcome{Slack: cur, Err: err} // only on failure
}

// DefaultTimerSlack is serve's -timer-slack. At 2,000 tables of 4 at a
// move a second, the server spent 194 µs of CPU a move with the system's
// 50 µs, 166 with 1 ms and 143 with 5 ms; its p99 was the same with 1 ms
// and about a millisecond longer with 5 (docs/server.md).
const DefaultTimerSlack = 5 * time.Millisecond
