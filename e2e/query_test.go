package e2e

import (
	"context"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// pollEvery is how often the tests' queries (waitVisible, clickOn, …) look
// again for what they wait for. chromedp's default, 5 ms, sends each
// waiting tab a few round trips of DOM queries every few milliseconds, and
// on a 2-core machine the browser's CPU is what bounds the package's time:
// 50 ms cut the CPU of a set of whole-game tests by a tenth and nothing
// waited for lasts less on screen (the shortest, a finished trick at the
// tests' pace, is there for 55 ms and is sampled in the page, sampleJS).
const pollEvery = 50 * time.Millisecond

func poll(opts []chromedp.QueryOption) []chromedp.QueryOption {
	return append(opts[:len(opts):len(opts)], chromedp.RetryInterval(pollEvery))
}

// waitVisible is chromedp.WaitVisible polling every pollEvery.
func waitVisible[S chromedp.Selectable](sel S, opts ...chromedp.QueryOption) chromedp.Action[chromedp.Void] {
	return chromedp.WaitVisible(sel, poll(opts)...)
}

// waitGone is chromedp.WaitNotPresent polling every pollEvery.
func waitGone[S chromedp.Selectable](sel S, opts ...chromedp.QueryOption) chromedp.Action[chromedp.Void] {
	return chromedp.WaitNotPresent(sel, poll(opts)...)
}

// clickOn is chromedp.Click polling every pollEvery.
func clickOn[S chromedp.Selectable](sel S, opts ...chromedp.QueryOption) chromedp.Action[chromedp.Void] {
	return chromedp.Click(sel, poll(opts)...)
}

// focusOn is chromedp.Focus polling every pollEvery.
func focusOn[S chromedp.Selectable](sel S, opts ...chromedp.QueryOption) chromedp.Action[chromedp.Void] {
	return chromedp.Focus(sel, poll(opts)...)
}

// sendKeys is chromedp.SendKeys polling every pollEvery.
func sendKeys[S chromedp.Selectable](sel S, v string, opts ...chromedp.QueryOption) chromedp.Action[chromedp.Void] {
	return chromedp.SendKeys(sel, v, poll(opts)...)
}

// screenshotOf is chromedp.Screenshot polling every pollEvery.
func screenshotOf[S chromedp.Selectable](sel S, opts ...chromedp.QueryOption) chromedp.Action[[]byte] {
	return chromedp.Screenshot(sel, poll(opts)...)
}

// pollFor is chromedp.Poll evaluating the expression every pollEvery
// rather than at every animation frame (chromedp's default), which has
// the page draw frames all the time it waits; opts may set another
// interval.
func pollFor[T any](expr string, opts ...chromedp.PollOption) chromedp.Action[T] {
	return chromedp.Poll[T](expr, append([]chromedp.PollOption{chromedp.WithPollingInterval(pollEvery)}, opts...)...)
}

// reduceMotion has the tab's page match prefers-reduced-motion: reduce.
func reduceMotion(ctx context.Context) error {
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}})
	return err
}
