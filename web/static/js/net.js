// The WebSocket connection: JSON messages, requests with ids, and
// reconnection with backoff that the player does not have to notice.

export class Conn {
  constructor(onMessage, onStatus) {
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.nextId = 1;
    this.pending = new Map();
    this.queue = [];
    this.ws = null;
    this.up = false;
    this.backoff = 250;
    this.closed = false;
  }

  open() {
    this.closed = false;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.up = true;
      this.backoff = 250;
      this.onStatus(true);
      const q = this.queue;
      this.queue = [];
      for (const m of q) ws.send(m);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.id !== undefined && this.pending.has(msg.id)) {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        p(msg);
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.up = false;
      this.onStatus(false);
      if (this.closed) return;
      const wait = this.backoff;
      this.backoff = Math.min(this.backoff * 2, 5000);
      setTimeout(() => this.open(), wait);
    };
    ws.onerror = () => {};
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }

  // send a message; with a callback, the answer carrying its id is passed on.
  send(msg, onAnswer) {
    if (onAnswer) {
      msg.id = this.nextId++;
      this.pending.set(msg.id, onAnswer);
    }
    const text = JSON.stringify(msg);
    if (this.up && this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else if (msg.type !== 'ping') this.queue.push(text);
  }

  request(msg) {
    return new Promise((resolve) => this.send(msg, resolve));
  }
}

export async function api(method, path, body) {
  const r = await fetch(path, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
    credentials: 'same-origin',
  });
  const ct = r.headers.get('Content-Type') || '';
  const data = ct.includes('json') ? await r.json() : await r.text();
  if (!r.ok) {
    const err = new Error((data && data.error && data.error.message) || String(r.status));
    err.code = (data && data.error && data.error.code) || String(r.status);
    err.status = r.status;
    if (data && data.error && data.error.limit) err.limit = data.error.limit;
    throw err;
  }
  return data;
}
