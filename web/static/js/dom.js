// A tiny DOM builder, h("button", {class: "x", onclick: f}, "text", child…),
// and morph(), which patches a live tree into a freshly built one so that
// elements that stay keep their identity (no flicker, no replayed entrance
// animation, focus and scroll positions kept) and moved cards can be
// animated (FLIP, see flip()).

// Handlers live in a per-element table read by one dispatcher per event
// type: morph() can then move a new tree's handlers onto the live element
// it keeps (addEventListener offers no way to read or remove them).
const ON = Symbol('on');

function dispatch(ev) {
  const f = this[ON] && this[ON][ev.type];
  if (f) return f.call(this, ev);
  return undefined;
}

function setOn(e, type, f) {
  if (!e[ON]) e[ON] = {};
  if (!(type in e[ON])) e.addEventListener(type, dispatch);
  e[ON][type] = f;
}

export function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on') && typeof v === 'function') setOn(e, k.slice(2), v);
      else if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k === 'dataset') Object.assign(e.dataset, v);
      // Through the CSSOM: the Content-Security-Policy (style-src 'self')
      // refuses style attributes set as markup.
      else if (k === 'style') e.style.cssText = v;
      else if (v === true) e.setAttribute(k, '');
      else e.setAttribute(k, v);
    }
  }
  append(e, children);
  return e;
}

function append(e, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(e, c);
    else if (c instanceof Node) e.appendChild(c);
    else e.appendChild(document.createTextNode(String(c)));
  }
}

// focusSelector names the focused element inside root so that it can be
// found again in a rebuilt tree.
function focusSelector(root) {
  const active = document.activeElement;
  if (!active || !root.contains(active) || active === root) return null;
  if (active.dataset.key) return `[data-key="${CSS.escape(active.dataset.key)}"]`;
  if (active.dataset.testid) return `[data-testid="${CSS.escape(active.dataset.testid)}"]`;
  if (active.id) return '#' + CSS.escape(active.id);
  return ''; // focused here but not to be found again: refocus falls back
}

// refocus puts the focus back after the focused control was removed (a
// card was played): keep the keyboard user in the hand, else on the table.
// A control disabled under the focus (a Clear button once nothing is
// selected) loses it too: the browser sends it to the body.
function refocus(root, sel) {
  if (sel === null) return;
  const active = document.activeElement;
  if (root.contains(active) && active !== root && !active.disabled) return;
  const again = sel && root.querySelector(sel);
  if (again && !again.disabled) {
    again.focus({ preventScroll: true });
    if (document.activeElement === again) return;
  }
  // The first that takes the focus: a playable card, the hand itself (its
  // cards are disabled out of turn), the table, else the page's main
  // element (focusable: tabindex -1).
  for (const next of [root.querySelector('[data-testid=hand-card]:not([disabled]):not([aria-disabled=true])'), root.querySelector('[data-testid=hand]'), root.querySelector('[data-testid=felt]'), root.hasAttribute('tabindex') ? root : null]) {
    if (!next) continue;
    if (!next.hasAttribute('tabindex') && next.tagName !== 'BUTTON') next.setAttribute('tabindex', '-1');
    next.focus({ preventScroll: true });
    if (document.activeElement === next) return;
  }
}

// replace swaps the content of root, keeping focus on the element with the
// same data-key (or test id, or id) when there was one.
export function replace(root, ...children) {
  const sel = focusSelector(root);
  root.replaceChildren();
  append(root, children);
  refocus(root, sel);
}

// morph makes root's content equal to children (built with h()), reusing
// the live elements: a child with a data-key matches the live sibling with
// the same key and tag; one without matches the live sibling at the same
// place if it has the same tag and no key. Attributes, text and handlers
// are copied over; what has no match is inserted, what is left over
// removed. The focused element survives when it is kept.
export function morph(root, ...children) {
  const sel = focusSelector(root);
  const flat = [];
  (function flatten(list) {
    for (const c of list) {
      if (c === undefined || c === null || c === false) continue;
      if (Array.isArray(c)) flatten(c);
      else flat.push(c instanceof Node ? c : document.createTextNode(String(c)));
    }
  })(children);
  morphChildren(root, flat);
  refocus(root, sel);
}

function keyOf(n) {
  return n.nodeType === 1 ? n.getAttribute('data-key') : null;
}

function sameKind(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName && (a.nodeType !== 1 || a.namespaceURI === b.namespaceURI);
}

function morphChildren(live, next) {
  const keyed = new Map();
  for (const c of live.childNodes) {
    const k = keyOf(c);
    if (k !== null) keyed.set(c.nodeName + '\u0000' + k, c);
  }
  const used = new Set();
  let cursor = live.firstChild;
  for (const n of next) {
    // Skip live nodes already taken (moved by key).
    while (cursor && used.has(cursor)) cursor = cursor.nextSibling;
    const k = keyOf(n);
    let match = null;
    if (k !== null) {
      const m = keyed.get(n.nodeName + '\u0000' + k);
      if (m && !used.has(m) && sameKind(m, n)) match = m;
    } else if (cursor && keyOf(cursor) === null && sameKind(cursor, n)) {
      match = cursor;
    }
    if (match) {
      used.add(match);
      patch(match, n);
      if (match !== cursor) live.insertBefore(match, cursor);
      else cursor = cursor.nextSibling;
    } else {
      live.insertBefore(n, cursor);
      used.add(n);
    }
  }
  for (const c of [...live.childNodes]) if (!used.has(c)) c.remove();
}

// patch makes the live node a equal to the new node b. Two elements with
// the same data-face draw the same card face (cards.js) and are equal
// already: they are skipped.
function patch(a, b) {
  if (a.nodeType !== 1) {
    if (a.nodeValue !== b.nodeValue) a.nodeValue = b.nodeValue;
    return;
  }
  const face = b.getAttribute('data-face');
  if (face !== null && face === a.getAttribute('data-face')) return;
  for (const at of [...a.attributes]) {
    if (!b.hasAttribute(at.name)) a.removeAttribute(at.name);
  }
  for (const at of b.attributes) {
    if (at.name === 'style') {
      if (a.style.cssText !== b.style.cssText) a.style.cssText = b.style.cssText;
    } else if (a.getAttribute(at.name) !== at.value) {
      a.setAttribute(at.name, at.value);
    }
  }
  // Live values the user may have changed: an input's text and check
  // follow the new tree (unless it has the focus); a select keeps the
  // user's choice unless the new tree marks an option selected.
  if ((b.tagName === 'INPUT' || b.tagName === 'TEXTAREA') && a !== document.activeElement && a.value !== b.value) a.value = b.value;
  if (b.tagName === 'INPUT' && a.checked !== b.checked) a.checked = b.checked;
  if (b.tagName === 'SELECT') {
    // A select's value follows its selected option, once the options are patched.
    morphChildren(a, [...b.childNodes]);
    const opt = [...a.options].find((o) => o.hasAttribute('selected'));
    if (opt && a !== document.activeElement) a.value = opt.value;
  } else if (!(b.hasAttribute('data-sync') && !b.firstChild)) {
    // (An empty element marked data-sync keeps the live one's children:
    // its owner brings them up to date itself, history.js.)
    morphChildren(a, [...b.childNodes]);
  }
  const on = b[ON];
  const had = a[ON] || {};
  for (const type of Object.keys(had)) if (!on || !(type in on)) a[ON][type] = null;
  if (on) for (const [type, f] of Object.entries(on)) setOn(a, type, f);
}

// reducedMotion is true when the user asked for less motion: nothing is
// animated then.
export function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
}

// flipRects records where every element with a data-flip name is, before a
// change (see flip).
export function flipRects(root) {
  const out = new Map();
  for (const e of root.querySelectorAll('[data-flip]')) {
    const r = e.getBoundingClientRect();
    const p = e.parentElement ? e.parentElement.getBoundingClientRect() : r;
    if (r.width || r.height) out.set(e.dataset.flip, { r, p, e, to: e.dataset.flipTo });
  }
  return out;
}

// FLIP_MS is how long a card takes to move: short, so that it never holds
// a player up.
export const FLIP_MS = 260;

// flip animates what moved between two flipRects: an element whose name
// was elsewhere before slides from there (a card from the hand to the
// trick); a new one with data-flip-from (a test id) slides from that
// element (a bot's card from its seat); a new hand card glows for a moment; a
// removed element with data-flip-to (a finished trick) flies, as a copy, to
// the element of that test id (the winner's seat). Skippable: finishAll().
export function flip(root, before) {
  if (reducedMotion() || !before || !document.body.animate) return;
  const seen = new Set();
  for (const e of root.querySelectorAll('[data-flip]')) {
    const name = e.dataset.flip;
    seen.add(name);
    const old = before.get(name);
    const r = e.getBoundingClientRect();
    if (!old) {
      const from = e.dataset.flipFrom && root.querySelector(`[data-testid="${CSS.escape(e.dataset.flipFrom)}"]`);
      if (from) {
        // A card that arrives from elsewhere (a seat, the stock) slides from there.
        const fr = from.getBoundingClientRect();
        const fx = fr.left + fr.width / 2 - (r.left + r.width / 2);
        const fy = fr.top + fr.height / 2 - (r.top + r.height / 2);
        e.animate([{ transform: `translate(${fx}px, ${fy}px) scale(.5)`, opacity: 0.3 }, { transform: 'none', opacity: 1 }], { duration: FLIP_MS, easing: 'ease-out' });
      }
      if (e.dataset.testid === 'hand-card') {
        e.classList.add('fresh');
        if (!from) e.animate([{ transform: 'translateY(-24px)', opacity: 0 }, { transform: 'none', opacity: 1 }], { duration: FLIP_MS, easing: 'ease-out' });
        setTimeout(() => e.classList.remove('fresh'), 1500);
      }
      continue;
    }
    let dx = old.r.left - r.left;
    let dy = old.r.top - r.top;
    if (old.e === e && e.parentElement) {
      // The same element in the same place of a box that moved (something
      // opened above the hand): only its move within the box is animated,
      // not the box's.
      const p = e.parentElement.getBoundingClientRect();
      dx -= old.p.left - p.left;
      dy -= old.p.top - p.top;
    }
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;
    const sx = old.r.width && r.width ? old.r.width / r.width : 1;
    e.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(${sx})`, transformOrigin: 'top left' },
      { transform: 'none', transformOrigin: 'top left' },
    ], { duration: FLIP_MS, easing: 'ease-out' });
  }
  for (const [name, old] of before) {
    if (seen.has(name) || !old.to) continue;
    const target = root.querySelector(`[data-testid="${CSS.escape(old.to)}"]`);
    if (!target) continue;
    const tr = target.getBoundingClientRect();
    const ghost = old.e.cloneNode(true);
    ghost.removeAttribute('data-flip');
    ghost.removeAttribute('data-testid');
    ghost.classList.add('ghost');
    ghost.setAttribute('aria-hidden', 'true');
    ghost.style.left = old.r.left + 'px';
    ghost.style.top = old.r.top + 'px';
    ghost.style.width = old.r.width + 'px';
    ghost.style.height = old.r.height + 'px';
    document.body.appendChild(ghost);
    const dx = tr.left + tr.width / 2 - (old.r.left + old.r.width / 2);
    const dy = tr.top + tr.height / 2 - (old.r.top + old.r.height / 2);
    const a = ghost.animate([{ transform: 'none', opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.4)`, opacity: 0 }], { duration: FLIP_MS + 140, easing: 'ease-in' });
    a.onfinish = () => ghost.remove();
    a.oncancel = () => ghost.remove();
  }
}

// finishAll ends every running animation at once (a click or key skips).
export function finishAll() {
  if (!document.getAnimations) return;
  for (const a of document.getAnimations()) {
    if (a.effect && a.effect.getComputedTiming && a.effect.getComputedTiming().iterations === Infinity) continue;
    try { a.finish(); } catch { /* an animation that cannot finish */ }
  }
}
