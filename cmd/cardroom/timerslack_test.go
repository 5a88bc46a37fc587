//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// slackHelperEnv makes TestTimerSlackHelper, run as a child process of
// TestTimerSlackReachesEveryThread, do its part.
const slackHelperEnv = "CARDROOM_TEST_SLACK_HELPER"

// TestTimerSlackReachesEveryThread runs the test binary as a child that
// asks for a slack of 3 ms: the child must execute itself again once, and
// then every one of its threads, the runtime's monitor (started before
// any Go code of ours) included, must have that slack. The child reports
// each thread's slack from /proc.
func TestTimerSlackReachesEveryThread(t *testing.T) {
	const want = 3 * time.Millisecond
	cur, err := timerSlack()
	if err != nil {
		t.Fatal(err)
	}
	if cur == want {
		t.Skipf("this process already has a slack of %v: nothing to tell apart", want)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestTimerSlackHelper$", "-test.v")
	cmd.Env = append(os.Environ(), slackHelperEnv+"="+strconv.FormatInt(int64(want), 10))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	var threads, reexecd int
	for line := range strings.SplitSeq(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "reexecd "); ok {
			if v != "true" {
				t.Errorf("the helper was not executed again: %q", line)
			}
			reexecd++
		}
		v, ok := strings.CutPrefix(line, "thread ")
		if !ok {
			continue
		}
		tid, ns, _ := strings.Cut(v, " ")
		if ns != strconv.FormatInt(int64(want), 10) {
			t.Errorf("thread %s has a slack of %s ns, want %d", tid, ns, want)
		}
		threads++
	}
	if reexecd != 1 {
		t.Errorf("the helper reported %d times that it ran again, want once:\n%s", reexecd, out)
	}
	// The main thread, sysmon and at least one more run any Go program.
	if threads < 3 {
		t.Errorf("the helper reported %d threads, want at least 3:\n%s", threads, out)
	}
}

// TestTimerSlackHelper is the child of TestTimerSlackReachesEveryThread.
func TestTimerSlackHelper(t *testing.T) {
	v := os.Getenv(slackHelperEnv)
	if v == "" {
		t.Skip("run by TestTimerSlackReachesEveryThread")
	}
	ns, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	o := ensureTimerSlack(time.Duration(ns), true) // returns only after executing again
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	if os.Getenv(slackEnv) != "" {
		t.Errorf("%s is still set: a process the room starts would inherit it", slackEnv)
	}
	fmt.Printf("reexecd %v\n", o.Reexecd)
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		b, err := os.ReadFile("/proc/" + task.Name() + "/timerslack_ns")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("thread %s %s\n", task.Name(), strings.TrimSpace(string(b)))
	}
}

func TestEnsureTimerSlackLeavesItAlone(t *testing.T) {
	cur, err := timerSlack()
	if err != nil {
		t.Fatal(err)
	}
	// Zero asks for the system's slack, and a test process may never be
	// executed again: either way, no change and no error.
	for _, want := range []time.Duration{0, cur + time.Millisecond} {
		o := ensureTimerSlack(want, false)
		if o.Err != nil || o.Reexecd || o.Slack != cur {
			t.Errorf("ensureTimerSlack(%v, false) = %+v, want slack %v, no error, not executed again", want, o, cur)
		}
		if now, _ := timerSlack(); now != cur {
			t.Errorf("ensureTimerSlack(%v, false) changed the slack to %v", want, now)
		}
	}
}

func TestCheckTimerSlack(t *testing.T) {
	for _, c := range []struct {
		d  time.Duration
		ok bool
	}{
		{0, true}, {time.Microsecond, true}, {5 * time.Millisecond, true}, {maxTimerSlack, true},
		{-time.Nanosecond, false}, {maxTimerSlack + 1, false}, {time.Hour, false},
	} {
		if err := checkTimerSlack(c.d); (err == nil) != c.ok {
			t.Errorf("checkTimerSlack(%v) = %v, want ok %v", c.d, err, c.ok)
		}
	}
	var out, errb strings.Builder
	if code := runServe([]string{"-timer-slack", "-1ms"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "-timer-slack") {
		t.Errorf("serve -timer-slack -1ms: code %d, stderr %q; want 2 and the flag named", code, errb.String())
	}
}
