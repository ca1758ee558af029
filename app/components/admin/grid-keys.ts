/**
 * The table's keyboard (issue 21): an accessible grid with one stop in the tab order. The arrow
 * keys move between a row's parts (its checkbox, the detail toggle, each cell, each action) and
 * to the same part of the rows above and below; Home and End go to the row's first and last part.
 * Enter on a cell opens the record (`onOpen`), on a link or a button does what a click does;
 * Space on a cell selects the row (`onSelect`). Every part is marked `data-grid-target`.
 */

const TARGET = '[data-grid-target]';

function rowsOf(body: HTMLElement): HTMLElement[] {
  return [...body.querySelectorAll<HTMLElement>(':scope > tr')].filter((row) => row.querySelector(TARGET));
}

function targetsOf(row: HTMLElement): HTMLElement[] {
  return [...row.querySelectorAll<HTMLElement>(TARGET)];
}

/** Leaves one part in the tab order: the one focused last, else the first row's first part. */
export function rovingTabIndex(body: HTMLElement, current: HTMLElement | null): HTMLElement | null {
  const all = [...body.querySelectorAll<HTMLElement>(TARGET)];
  const keep = current && all.includes(current) ? current : (all[0] ?? null);
  for (const target of all) target.tabIndex = target === keep ? 0 : -1;
  return keep;
}

export function handleGridKey(
  event: KeyboardEvent,
  body: HTMLElement,
  actions: { onOpen: (row: HTMLElement) => void; onSelect: (row: HTMLElement) => void },
): HTMLElement | null {
  const target = (event.target as HTMLElement).closest<HTMLElement>(TARGET);
  if (!target || !body.contains(target)) return null;
  const row = target.closest('tr') as HTMLElement;
  const rows = rowsOf(body);
  const parts = targetsOf(row);
  const index = parts.indexOf(target);
  const rowIndex = rows.indexOf(row);
  const interactive = target.matches('a, button, input');
  let next: HTMLElement | undefined;
  switch (event.key) {
    case 'ArrowRight':
      next = parts[Math.min(index + 1, parts.length - 1)];
      break;
    case 'ArrowLeft':
      next = parts[Math.max(index - 1, 0)];
      break;
    case 'ArrowDown':
    case 'ArrowUp': {
      const other = rows[rowIndex + (event.key === 'ArrowDown' ? 1 : -1)];
      if (other) {
        const otherParts = targetsOf(other);
        next = otherParts[Math.min(index, otherParts.length - 1)];
      } else next = target;
      break;
    }
    case 'Home':
      next = parts[0];
      break;
    case 'End':
      next = parts[parts.length - 1];
      break;
    case 'Enter':
      if (interactive) return null;
      event.preventDefault();
      actions.onOpen(row);
      return null;
    case ' ':
      if (interactive) return null;
      event.preventDefault();
      actions.onSelect(row);
      return null;
    default:
      return null;
  }
  event.preventDefault();
  if (!next) return null;
  for (const part of body.querySelectorAll<HTMLElement>(TARGET)) part.tabIndex = part === next ? 0 : -1;
  next.focus();
  return next;
}
