//go:build !linux

package pool

import "errors"

func lowerPriority(int) error { return errors.ErrUnsupported }

func threadNice() (int, error) { return 0, errors.ErrUnsupported }
