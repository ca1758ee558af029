import { describe, expect, it } from 'vitest';
import { settingsFromForm, settingsSchema } from './settings';

function form(entries: [string, string][]): FormData {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

describe('the settings form as sent', () => {
  it('reads its switches, its markets’ rows (empty and removed ones left out) and the currencies offered', () => {
    const answers = settingsFromForm(
      form([
        ['contactForm', 'on'],
        ['regions.0.code', 'hk'],
        ['regions.0.name', ' Hong Kong '],
        ['regions.0.region', 'hk'],
        ['regions.0.url', '/'],
        ['regions.1.code', 'sg'],
        ['regions.1.remove', 'on'],
        ['regions.2.code', ''],
        ['region', 'hk'],
        ['currencies', 'HKD'],
        ['currencies', 'XXX'],
        ['currency', 'HKD'],
      ]),
    );
    expect(settingsSchema.parse(answers)).toEqual({
      contactForm: true,
      subscription: false,
      regions: [{ code: 'hk', name: 'Hong Kong', region: 'hk', url: '/' }],
      region: 'hk',
      currencies: ['HKD'],
      currency: 'HKD',
    });
  });

  it('never refuses: the features service checks the settings', () => {
    expect(settingsSchema.parse({ regions: 'x', currencies: 3 })).toEqual({
      contactForm: false,
      subscription: false,
      regions: [],
      region: '',
      currencies: [],
      currency: '',
    });
  });
});
