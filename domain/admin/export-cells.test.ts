import { describe, expect, it } from 'vitest';
import { contactForms } from '../entities/contact-forms.ts';
import { orders } from '../entities/orders.ts';
import { payments } from '../entities/payments.ts';
import { subscribers } from '../entities/subscribers.ts';
import { blogs } from '../entities/blogs.ts';
import { exportCell, exportLabel, textOfHtml } from './export-cells.ts';

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
    expect(exportCell(contactForms, 'createdAt', { createdAt: new Date('2026-03-04T17:00:00Z') }, t, 'en')).toBe(
      '2026-03-05',
    );
    expect(exportCell(contactForms, 'testing', { testing: true }, t, 'zh-hk')).toBe('是');
    expect(exportCell(contactForms, 'testing', { testing: false }, t, 'zh-hk')).toBe('否');
    expect(exportCell(payments, 'amount', { amount: 123456, currency: 'HKD' }, t, 'en')).toBe('HK$1,234.56');
    expect(exportCell(payments, 'currency', { currency: 'SGD' }, t, 'en')).toBe('SGD');
    expect(exportCell(contactForms, 'phone', { phone: null }, t, 'en')).toBe('');
  });

  it('write an article’s body as its words in the language, without its markup', () => {
    const body = {
      en: '<h2>Faster &amp; simpler</h2><p>Take <strong>orders</strong> at the table.</p><ul><li>One</li><li>Two</li></ul>',
      'zh-hk': '<p>枱邊落單。</p>',
    };
    expect(exportCell(blogs, 'body', { body }, t, 'en')).toBe('Faster & simpler Take orders at the table. One Two');
    expect(exportCell(blogs, 'body', { body }, t, 'zh-hk')).toBe('枱邊落單。');
    expect(textOfHtml('<p>a &lt;b&gt; &quot;c&quot; &#39;d&#39;</p>')).toBe('a <b> "c" \'d\'');
  });

  it('write a reference as its record’s name when the page knows it, else its id', () => {
    const references = { user: { u1: 'mei@example.com' } };
    expect(exportCell(orders, 'user', { user: 'u1' }, t, 'en', references)).toBe('mei@example.com');
    expect(exportCell(orders, 'user', { user: 'u2' }, t, 'en', references)).toBe('u2');
    expect(exportCell(orders, 'user', { user: 'u1' }, t, 'en')).toBe('u1');
  });
});
