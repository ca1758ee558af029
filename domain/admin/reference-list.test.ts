import { describe, expect, it } from 'vitest';
import { campaigns } from '../entities/ads.ts';
import { hintsOf } from '../entities/types.ts';
import { checkChanges, formChanges, inputName, inputValue } from './form.ts';
import {
  addReference,
  chosenReferences,
  moveReference,
  nextActive,
  offeredReferences,
  referenceListInput,
  referenceListOf,
  removeReference,
} from './reference-list.ts';
import { referenceNames, REFERENCE_LOOKUP } from './references.ts';
import { columnsOf, editorFieldsOf } from './screens.ts';
import { exportCell } from './export-cells.ts';

describe('a list of references in the editor', () => {
  it('shows each chosen record by its name, and one that no longer exists as gone, never by its id', () => {
    expect(chosenReferences(['a1', 'gone', 'a2'], { a1: 'Race day', a2: 'Lunch' }, 'No longer exists')).toEqual([
      { value: 'a1', label: 'Race day', missing: false },
      { value: 'gone', label: 'No longer exists', missing: true },
      { value: 'a2', label: 'Lunch', missing: false },
    ]);
  });

  it('adds at the end once, never past its most, and offers only the records not chosen yet', () => {
    expect(addReference(['a'], 'b')).toEqual(['a', 'b']);
    expect(addReference(['a', 'b'], 'a')).toEqual(['a', 'b']);
    expect(addReference(['a', 'b'], 'c', 2)).toEqual(['a', 'b']);
    expect(addReference(['a'], '')).toEqual(['a']);
    const found = [
      { value: 'a', label: 'A' },
      { value: 'b', label: 'B' },
      { value: 'c', label: 'C' },
    ];
    expect(offeredReferences(found, ['b'])).toEqual([found[0], found[2]]);
  });

  it('removes one and moves one within the list, changing nothing at its ends', () => {
    expect(removeReference(['a', 'b', 'c'], 1)).toEqual(['a', 'c']);
    expect(removeReference(['a'], 3)).toEqual(['a']);
    expect(moveReference(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveReference(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveReference(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveReference(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('moves the active option with the arrow keys, round at either end, none when nothing is offered', () => {
    expect(nextActive(-1, 'ArrowDown', 3)).toBe(0);
    expect(nextActive(-1, 'ArrowUp', 3)).toBe(2);
    expect(nextActive(2, 'ArrowDown', 3)).toBe(0);
    expect(nextActive(0, 'ArrowUp', 3)).toBe(2);
    expect(nextActive(1, 'ArrowDown', 0)).toBe(-1);
  });

  it('carries the ids one a line, and reads them back without empty lines', () => {
    expect(referenceListOf(referenceListInput(['a', 'b']))).toEqual(['a', 'b']);
    expect(referenceListOf(' a \r\n\r\nb\n')).toEqual(['a', 'b']);
  });
});

describe('a campaign’s ads, a definition’s list of references', () => {
  const field = editorFieldsOf(campaigns, 'editor', 'patch').find((candidate) => candidate.name === 'ads')!;

  it('is drawn by the references widget, editable, and a column of the table', () => {
    expect(hintsOf(campaigns.fields.ads).widget).toBe('refs');
    expect([field.widget, field.editable]).toEqual(['refs', true]);
    expect(columnsOf(campaigns).map((column) => column.name)).toContain('ads');
  });

  it('sends the chosen ids in their order when they changed, and checks them by the field’s schema', () => {
    const stored = { _id: 'c1', ads: ['a1', 'a2'] };
    expect(inputValue(field, stored.ads)).toBe('a1\na2');
    const data = new FormData();
    data.set(inputName('ads'), 'a2\na1');
    expect(formChanges([field], data, stored)).toEqual({ ads: ['a2', 'a1'] });
    data.set(inputName('ads'), 'a1\na2');
    expect(formChanges([field], data, stored)).toEqual({});
    expect(checkChanges([field], { ads: ['a1', 'a1'] }, false)).toEqual({ ads: 'validation.duplicate' });
  });

  it('names every ad of a page of campaigns, more than one lookup’s worth, a lookup per hundred', async () => {
    const ids = Array.from({ length: REFERENCE_LOOKUP + 30 }, (_, i) => `ad${i}`);
    const records = [{ _id: 'c1', ads: ids.slice(0, 80) }, { _id: 'c2', ads: ids.slice(60) }, { _id: 'c3' }];
    const asked: number[] = [];
    const names = await referenceNames(campaigns, ['ads'], records, 'en', async (target, query) => {
      expect(target).toBe('ads');
      const wanted = ((query._id as { $in: string[] }).$in ?? []).filter((id) => id !== 'ad5');
      asked.push(wanted.length + (wanted.length < (query._id as { $in: string[] }).$in.length ? 1 : 0));
      return wanted.map((id) => ({ _id: id, name: { en: `Ad ${id}` } }));
    });
    expect(asked).toEqual([REFERENCE_LOOKUP, 30]);
    expect(names.ads?.ad129).toBe('Ad ad129');
    // One that was not found (removed) is left out: the table says it no longer exists.
    expect(names.ads?.ad5).toBeUndefined();
    const t = (key: string) => key;
    expect(exportCell(campaigns, 'ads', { ads: ['ad1', 'ad5'] }, t, 'en', names)).toBe('Ad ad1, ad5');
  });
});
