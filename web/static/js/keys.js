// Keyboard shortcuts: in a replay the arrow keys step; at a table "h" asks
// for a hint. Everything else is plain buttons, reached with Tab.
import { onRoute } from './app.js';
import { stepReplay } from './views/replay.js';

export function onKey(e) {
  if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT' || e.target.tagName === 'TEXTAREA')) return;
  if (onRoute('replay')) {
    if (e.key === 'ArrowRight' && stepReplay(1)) e.preventDefault();
    if (e.key === 'ArrowLeft' && stepReplay(-1)) e.preventDefault();
  }
  if (onRoute('table') && e.key === 'h' && !e.ctrlKey && !e.metaKey && !e.altKey) {
    const b = document.querySelector('[data-testid=hint]');
    if (b) b.click();
  }
}
