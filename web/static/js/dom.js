// A tiny DOM builder: h("button", {class: "x", onclick: f}, "text", child…).
export function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
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

// replace swaps the content of root, keeping focus on the element with the
// same data-key when there was one.
export function replace(root, ...children) {
  const active = document.activeElement;
  let sel = null;
  if (active && root.contains(active) && active !== root) {
    if (active.dataset.key) sel = `[data-key="${CSS.escape(active.dataset.key)}"]`;
    else if (active.dataset.testid) sel = `[data-testid="${CSS.escape(active.dataset.testid)}"]`;
    else if (active.id) sel = '#' + CSS.escape(active.id);
  }
  root.replaceChildren();
  append(root, children);
  if (sel) {
    const again = root.querySelector(sel);
    if (again) again.focus({ preventScroll: true });
    else {
      // The focused control is gone (a card was played): keep the keyboard
      // user in the hand, else on the table.
      const next = root.querySelector('[data-testid=hand-card]:not([disabled])') || root.querySelector('[data-testid=hand-card]') || root.querySelector('[data-testid=felt]');
      if (next) {
        if (!next.hasAttribute('tabindex') && next.tagName !== 'BUTTON') next.setAttribute('tabindex', '-1');
        next.focus({ preventScroll: true });
      }
    }
  }
}
