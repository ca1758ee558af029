import { type EntityDef, writtenByCreator } from '../../domain/entities/types.ts';
import { translate } from '../i18n.ts';
import type { Mail } from './mailer.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Field values as staff read them: choices by their English label, lists joined, yes/no. */
function shown(def: EntityDef, name: string, value: unknown): string {
  if (value === undefined || value === null || value === '') return '-';
  if (Array.isArray(value)) return value.map((item) => shown(def, name, item)).join(', ') || '-';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (value instanceof Date) return value.toISOString();
  const key = `forms.options.${name}.${String(value)}`;
  const label = translate('en', key);
  return label === key ? String(value) : label;
}

/** Which fields a staff mail lists: what the visitor wrote, not the record's bookkeeping or staff's follow-up. */
function mailedFields(def: EntityDef): string[] {
  return Object.entries(def.fields)
    .filter(([, field]) => writtenByCreator(field) && !field.hidden)
    .map(([name]) => name);
}

/**
 * The mail staff get about a new enquiry or contact form, in English: plain text and a simple
 * HTML table listing every submitted field.
 */
export function staffMail(
  def: EntityDef,
  record: Record<string, unknown>,
  to: string,
  brand: string,
): Omit<Mail, 'to'> & { to: string } {
  const kind = translate('en', `forms.mail.${def.service}`);
  const who = [record.firstName, record.lastName].filter(Boolean).join(' ') || String(record.name ?? '');
  const company = String(record.companyName ?? '');
  const subject = `${record.testing ? '[Test] ' : ''}${brand}: ${kind} from ${who}${company ? ` (${company})` : ''}`;
  const rows = mailedFields(def).map(
    (name) => [translate('en', `forms.fields.${name}`), shown(def, name, record[name])] as const,
  );
  const received = record.createdAt instanceof Date ? record.createdAt.toISOString() : String(record.createdAt ?? '');
  const text = [
    `${kind} received ${received}`,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    `Record id: ${String(record._id)}`,
  ].join('\n');
  const html = [
    `<p>${escapeHtml(kind)} received ${escapeHtml(received)}</p>`,
    '<table cellpadding="4" style="border-collapse:collapse">',
    ...rows.map(
      ([label, value]) =>
        `<tr><th align="left" valign="top">${escapeHtml(label)}</th><td style="white-space:pre-wrap">${escapeHtml(value)}</td></tr>`,
    ),
    '</table>',
    `<p>Record id: ${escapeHtml(String(record._id))}</p>`,
  ].join('\n');
  return { to, subject, text, html };
}
