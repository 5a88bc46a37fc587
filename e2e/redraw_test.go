package e2e

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"

	"cardroom/server"
)

// TestRedrawsCoalesce: a burst of state messages (a fast game: each in a
// task of its own, as WebSocket messages come) is drawn at most once an
// animation frame, not once a message, and the page ends on the last
// state; what the burst costs the page is logged (the before/after figure
// of docs/client.md, "Drawing").
func TestRedrawsCoalesce(t *testing.T) {
	e := newEnv(t)
	b := e.tab("alice")
	b.login("alice")
	fakeTable(t, b, "t_fakeburst")
	const n = 300
	var res struct {
		Draws, Frames, Seq int
		MS, Script         float64
	}
	runAsync(t, b, 30*time.Second, `
	  const hands = [['1S', '3S', '8D'], ['1S', '8D'], ['3S', '8D'], ['1S', '3S']];
	  const state = (i) => ({seq: 100 + i, to_act: [1], view: __pv({hand: hands[i % 4], hand_sizes: [hands[i % 4].length, 3, 3], points: [i, 0, 0]})});
	  __send(state(0));
	  await __sleep(100);
	  const felt = () => document.querySelector('[data-testid=felt]');
	  // A draw writes the shown state's seq on the felt: count the writes.
	  let draws = 0;
	  const mo = new MutationObserver((recs) => { draws += recs.filter((r) => r.attributeName === 'data-seq').length; });
	  mo.observe(document.getElementById('app'), {attributes: true, subtree: true, attributeFilter: ['data-seq']});
	  let frames = 0, counting = true;
	  const frame = () => { if (counting) { frames++; requestAnimationFrame(frame); } };
	  requestAnimationFrame(frame);
	  const ch = new MessageChannel();
	  let sent = 1, script = 0;
	  const t0 = performance.now();
	  await new Promise((done) => {
	    ch.port1.onmessage = () => {
	      const s = performance.now();
	      __send(state(sent++));
	      script += performance.now() - s;
	      if (sent <= `+strconv.Itoa(n)+`) ch.port2.postMessage(0); else done();
	    };
	    ch.port2.postMessage(0);
	  });
	  const last = 100 + `+strconv.Itoa(n)+`;
	  while (+felt().dataset.seq !== last && performance.now() - t0 < 20000) await new Promise((r) => requestAnimationFrame(r));
	  const ms = performance.now() - t0;
	  await __sleep(50);
	  counting = false;
	  mo.disconnect();
	  return JSON.stringify({Draws: draws, Frames: frames, Seq: +felt().dataset.seq, MS: ms, Script: script});`, &res)
	t.Logf("%d state messages: %d draws in %d frames, %.0f ms until the last is on screen, %.0f ms in the message handlers", n, res.Draws, res.Frames, res.MS, res.Script)
	if res.Seq != 100+n {
		t.Errorf("the page shows state %d, want the last, %d", res.Seq, 100+n)
	}
	// Not fewer draws than some number: a loaded machine draws slower, and
	// then every frame has a draw to do.
	if res.Draws > res.Frames+2 {
		t.Errorf("%d draws for %d messages in %d frames: want at most one a frame", res.Draws, n, res.Frames)
	}
	e.checkJS()
}

// TestRedrawsFastGame: a spectator watches a game of four bots that move
// every 3 ms (a fast game); the page draws at most once a frame, keeps up
// (the final scores show), and what the game cost the page's main thread
// is logged from Chromium's own counters (Performance.getMetrics): the
// figure of docs/client.md, "Drawing".
func TestRedrawsFastGame(t *testing.T) {
	e := newEnv(t, func(c *server.Config) { c.Table.BotDelay = 3 * time.Millisecond; c.Table.TrickPause = 0 })
	b := e.tab("alice")
	b.login("alice")
	metrics := func() map[string]float64 {
		out := map[string]float64{}
		b.must(5*time.Second, "the page's metrics", chromedp.Action[chromedp.Void](func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
			if _, err := chromedp.Call(ctx, performance.Enable, performance.EnableParams{}); err != nil {
				return chromedp.Void{}, err
			}
			r, err := chromedp.Call(ctx, performance.GetMetrics, cdp.Empty{})
			for _, m := range r.Metrics {
				out[m.Name] = m.Value
			}
			return chromedp.Void{}, err
		}))
		return out
	}
	m0 := metrics()
	start := time.Now()
	msg := `{"type": "create", "game": "papayoo", "options": {"players": "4", "rounds": "5"}, "seat": -1, "bots": {"0": "random", "1": "random", "2": "random", "3": "random"}, "bot_level": "random", "clock_ms": 0}`
	if _, err := eval[bool](b, `(() => {
	  window.__draws = 0; window.__frames = 0;
	  new MutationObserver((recs) => { window.__draws += recs.filter((r) => r.attributeName === 'data-seq').length; })
	    .observe(document.getElementById('app'), {attributes: true, subtree: true, attributeFilter: ['data-seq']});
	  const frame = () => { window.__frames++; requestAnimationFrame(frame); };
	  requestAnimationFrame(frame);
	  window.cardroom.conn.send(`+msg+`, (ans) => { location.hash = '#/table/' + ans.summary.id; });
	  return true;
	})()`); err != nil {
		t.Fatal(err)
	}
	b.must(120*time.Second, "the final scores", waitVisible(tid("final-scores")))
	wall := time.Since(start).Seconds()
	m1 := metrics()
	d := func(k string) float64 { return m1[k] - m0[k] }
	draws, _ := eval[int](b, `window.__draws`)
	frames, _ := eval[int](b, `window.__frames`)
	t.Logf("a game of %d draws in %d frames: %.1f s until the final scores, the main thread busy %.2f s (script %.2f s, layout %.2f s, style %.2f s)",
		draws, frames, wall, d("TaskDuration"), d("ScriptDuration"), d("LayoutDuration"), d("RecalcStyleDuration"))
	if draws == 0 || draws > frames+2 {
		t.Errorf("%d draws in %d frames: want at most one a frame", draws, frames)
	}
	e.checkJS()
}
