import { describe, expect, it } from 'vitest';
import { blogs } from './blogs.ts';
import { entities } from './index.ts';
import { hintsOf } from './types.ts';

describe('back-office hints', () => {
  it('follow from the field where the definition gives none', () => {
    expect(hintsOf({ kind: 'i18n', listed: true })).toEqual({ widget: 'i18nText', shownIn: ['list', 'detail'] });
    expect(hintsOf({ kind: 'date' })).toEqual({ widget: 'date', shownIn: ['detail'] });
    expect(hintsOf({ kind: 'password', hidden: true })).toEqual({ widget: 'password', shownIn: [] });
  });

  it('keep what the definition gives', () => {
    expect(hintsOf(blogs.fields.body)).toEqual({ widget: 'richText', shownIn: ['detail'] });
    expect(hintsOf(blogs.fields.title)).toEqual({ widget: 'i18nText', column: 1, shownIn: ['list', 'detail'] });
    expect(hintsOf({ kind: 'string', listed: true, hints: { shownIn: ['detail'] } }).shownIn).toEqual(['detail']);
  });

  it('show every listed field of every entity in its list', () => {
    const notInList = Object.values(entities).flatMap((definition) =>
      Object.entries(definition.fields)
        .filter(([, field]) => field.listed && !hintsOf(field).shownIn.includes('list'))
        .map(([name]) => `${definition.service}.${name}`),
    );
    expect(notInList).toEqual([]);
  });
});
