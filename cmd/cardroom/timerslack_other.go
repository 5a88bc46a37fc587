//go:build !linux

package main

import (
	"errors"
	"time"
)

// Timer slack is Linux's: elsewhere -timer-slack does nothing.
func timerSlack() (time.Duration, error) { return 0, errors.ErrUnsupported }

func execWithTimerSlack(time.Duration, string) error { return errors.ErrUnsupported }
