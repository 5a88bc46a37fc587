// One AudioContext for the page's short tones (the turn beep, the
// background-tab alert, the last seconds of a turn clock): a browser
// starts an audio stream for every context, and starting one is the costly
// part of a first tone.

let ctx = null;

// tone plays a sine of freq Hz fading out over secs seconds, at gain
// (0.05 unless given). Where the page has no audio it does nothing.
export function tone(freq, secs, gain = 0.05) {
  try {
    ctx = ctx || new AudioContext();
    const o = ctx.createOscillator();
    const g = ctx.createGain();
    o.frequency.value = freq;
    g.gain.value = gain;
    g.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + secs);
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + secs + 0.02);
  } catch { /* no audio */ }
}
