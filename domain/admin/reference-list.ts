/*
 * A list of references in the editor (a campaign's ads, decision 061): the records chosen, in
 * order, each shown by its name, or as gone when its record no longer exists; what a search
 * offers (the records not chosen yet); and the changes the widget makes to the list. The widget
 * (app/components/admin/reference-list-picker.tsx) draws it; these are its rules.
 */

export interface ChosenReference {
  value: string;
  /** The record's name; for a record that no longer exists, the text that says so. */
  label: string;
  /** Its record no longer exists (or the staff member may not read it). */
  missing: boolean;
}

/** The chosen ids as chips: each by its record's name, a record not found by `missingLabel`. */
export function chosenReferences(
  ids: readonly string[],
  names: Readonly<Record<string, string>>,
  missingLabel: string,
): ChosenReference[] {
  return ids.map((value) => {
    const label = names[value];
    return label === undefined ? { value, label: missingLabel, missing: true } : { value, label, missing: false };
  });
}

/** The list with `id` added at its end: unchanged when it is already there or the list is full. */
export function addReference(ids: readonly string[], id: string, max = Number.POSITIVE_INFINITY): string[] {
  if (!id || ids.includes(id) || ids.length >= max) return [...ids];
  return [...ids, id];
}

/** The list without its item at `index`. */
export function removeReference(ids: readonly string[], index: number): string[] {
  return ids.filter((_, at) => at !== index);
}

/** The list with its item at `index` moved by `step` (-1 up, 1 down); unchanged at either end. */
export function moveReference(ids: readonly string[], index: number, step: -1 | 1): string[] {
  const to = index + step;
  if (index < 0 || index >= ids.length || to < 0 || to >= ids.length) return [...ids];
  const next = [...ids];
  [next[index], next[to]] = [next[to] as string, next[index] as string];
  return next;
}

/** What a search offers: the records found that are not chosen yet. */
export function offeredReferences<T extends { value: string }>(found: readonly T[], ids: readonly string[]): T[] {
  const chosen = new Set(ids);
  return found.filter((record) => !chosen.has(record.value));
}

/** The option the arrow keys move to among `count` (none active: -1), going round at either end. */
export function nextActive(active: number, key: 'ArrowDown' | 'ArrowUp', count: number): number {
  if (count === 0) return -1;
  const step = key === 'ArrowDown' ? 1 : -1;
  if (active < 0) return step === 1 ? 0 : count - 1;
  return (active + step + count) % count;
}

/** The ids as the form carries them (one a line, as a plain list is sent). */
export const referenceListInput = (ids: readonly string[]) => ids.join('\n');

/** The ids a list input holds. */
export function referenceListOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}
