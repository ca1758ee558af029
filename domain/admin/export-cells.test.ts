import { describe, expect, it } from 'vitest';
import { contactForms } from '../entities/contact-forms.ts';
import { payments } from '../entities/payments.ts';
import { subscribers } from '../entities/subscribers.ts';
import { exportCell, exportLabel } from './export-cells.ts';

const messages: Record<string, string> = {
  'resources.subscribers.fields.campaign': '推廣活動',
  'resources.subscribers.values.campaign.sg23': 'sg23 活動',
  'admin.yes': '是',
  'admin.no': '否',
};
const t = (key: string) => messages[key] ?? key;

describe('an export’s cells', () => {
  it('label fields in the language, or by their name when there is no label', () => {
    expect(exportLabel(t, 'subscribers', 'campaign')).toBe('推廣活動');
    expect(exportLabel(t, 'subscribers', 'locale')).toBe('locale');
  });

  it('write enumerations as their labels, the value when there is none', () => {
    expect(exportCell(subscribers, 'campaign', { campaign: 'sg23' }, t, 'zh-hk')).toBe('sg23 活動');
    expect(exportCell(subscribers, 'campaign', { campaign: '23hkrace' }, t, 'zh-hk')).toBe('23hkrace');
  });

  it('write dates as Hong Kong days, booleans as yes or no, money in dollars with its currency', () => {
    expect(exportCell(contactForms, 'createdAt', { createdAt: new Date('2026-03-04T17:00:00Z') }, t, 'en')).toBe('2026-03-05');
    expect(exportCell(contactForms, 'testing', { testing: true }, t, 'zh-hk')).toBe('是');
    expect(exportCell(contactForms, 'testing', { testing: false }, t, 'zh-hk')).toBe('否');
    expect(exportCell(payments, 'amount', { amount: 123456, currency: 'HKD' }, t, 'en')).toBe('HK$1,234.56');
    expect(exportCell(payments, 'currency', { currency: 'SGD' }, t, 'en')).toBe('SGD');
    expect(exportCell(contactForms, 'phone', { phone: null }, t, 'en')).toBe('');
  });
});
