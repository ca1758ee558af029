import type { Locale } from '../../../domain/locales.ts';
import type { CurrencyCode } from '../../../domain/money.ts';
import { translate } from '../../i18n.ts';

/** Text for HTML: the few characters that could open markup. */
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** A value for an inline script: JSON that cannot close the script element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const STYLE = `
  *{box-sizing:border-box}body{margin:0;font:16px/1.4 system-ui,sans-serif;color:#1a1a1a;background:#fff}
  label{display:block;font-size:14px;margin:0 0 4px}input{width:100%;font:inherit;padding:10px 12px;border:1px solid #8a8a8a;border-radius:6px}
  input[aria-invalid=true]{border-color:#b00020}.row{display:flex;gap:12px;align-items:flex-end}.row>div{flex:1}.field{margin-bottom:12px}
  .error{color:#b00020;font-size:14px;min-height:1.2em;margin:4px 0 0}.note{font-size:13px;color:#555;margin:0 0 12px}
  button{font:inherit;padding:10px 16px;border-radius:6px;border:1px solid #1a1a1a;background:#fff;cursor:pointer}
  button.primary{background:#1a1a1a;color:#fff}main{padding:16px;max-width:480px;margin:auto}`;

function page(options: { locale: Locale; title: string; nonce: string; body: string; script: string }): string {
  return `<!doctype html><html lang="${options.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(options.title)}</title><style nonce="${options.nonce}">${STYLE}</style></head>
<body>${options.body}<script nonce="${options.nonce}">${options.script}</script></body></html>`;
}

/**
 * The card fields: number, expiry and CVC, on the sandbox's origin. The parent page (our site)
 * asks for a token with `{type: 'sandbox:tokenize', requestId}`; the frame posts the card to its
 * own `/v1/payment_methods` and answers the parent, to its origin only.
 */
export function framePage(options: { locale: Locale; nonce: string; parentOrigin: string }): string {
  const t = (key: string) => translate(options.locale, `gateway.${key}`);
  const errors = Object.fromEntries(
    ['number', 'unknownNumber', 'expiry', 'expired', 'cvc', 'unavailable'].map((key) => [key, t(`errors.${key}`)]),
  );
  const body = `<form id="card" novalidate>
<p class="note">${escapeHtml(t('frame.testNotice'))}</p>
<div class="field"><label for="number">${escapeHtml(t('frame.number'))}</label>
<input id="number" name="number" inputmode="numeric" autocomplete="cc-number" maxlength="23" placeholder="1234 1234 1234 1234" aria-describedby="number-error" required>
<p class="error" id="number-error" role="alert"></p></div>
<div class="row"><div class="field"><label for="expiry">${escapeHtml(t('frame.expiry'))}</label>
<input id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" maxlength="7" placeholder="MM / YY" aria-describedby="expiry-error" required>
<p class="error" id="expiry-error" role="alert"></p></div>
<div class="field"><label for="cvc">${escapeHtml(t('frame.cvc'))}</label>
<input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" maxlength="4" placeholder="123" aria-describedby="cvc-error" required>
<p class="error" id="cvc-error" role="alert"></p></div></div></form>`;
  const script = `(() => {
const parentOrigin = ${scriptJson(options.parentOrigin)};
const messages = ${scriptJson(errors)};
const $ = (id) => document.getElementById(id);
const fields = { number: $('number'), expiry: $('expiry'), cvc: $('cvc') };
const fieldOf = { number: 'number', unknownNumber: 'number', expiry: 'expiry', expired: 'expiry', cvc: 'cvc' };
const send = (message) => window.parent.postMessage(message, parentOrigin);
const digits = (value) => value.replace(/\\D/g, '');
function read() {
  const [month = '', year = ''] = fields.expiry.value.split('/').map((part) => digits(part));
  return { number: digits(fields.number.value), expMonth: Number(month), expYear: Number(year), cvc: digits(fields.cvc.value) };
}
function show(problems) {
  for (const name of Object.keys(fields)) { fields[name].setAttribute('aria-invalid', 'false'); $(name + '-error').textContent = ''; }
  for (const problem of problems) {
    const name = fieldOf[problem];
    if (!name) continue;
    fields[name].setAttribute('aria-invalid', 'true');
    if (!$(name + '-error').textContent) $(name + '-error').textContent = messages[problem] || '';
  }
}
fields.number.addEventListener('input', () => {
  const value = digits(fields.number.value).slice(0, 19);
  fields.number.value = value.replace(/(\\d{4})(?=\\d)/g, '$1 ');
});
fields.expiry.addEventListener('input', (event) => {
  const value = digits(fields.expiry.value).slice(0, 4);
  fields.expiry.value = value.length > 2 || (value.length === 2 && event.inputType !== 'deleteContentBackward') ? value.slice(0, 2) + ' / ' + value.slice(2) : value;
});
for (const input of Object.values(fields)) input.addEventListener('input', () => {
  const card = read();
  send({ type: 'sandbox:change', complete: card.number.length >= 12 && card.expMonth > 0 && card.expYear > 0 && card.cvc.length >= 3 });
});
window.addEventListener('message', async (event) => {
  if (event.origin !== parentOrigin || event.source !== window.parent) return;
  const data = event.data;
  if (!data || data.type !== 'sandbox:tokenize') return;
  const requestId = typeof data.requestId === 'string' ? data.requestId : '';
  try {
    const response = await fetch('/v1/payment_methods', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(read()) });
    const answer = await response.json();
    if (response.ok) {
      show([]);
      send({ type: 'sandbox:tokenized', requestId, paymentMethodId: answer.paymentMethodId, card: answer.card });
    } else {
      const problems = (answer.error && answer.error.problems) || ['unavailable'];
      show(problems);
      send({ type: 'sandbox:error', requestId, problems, message: problems.map((problem) => messages[problem] || messages.unavailable).join(' ') });
    }
  } catch {
    send({ type: 'sandbox:error', requestId, problems: ['unavailable'], message: messages.unavailable });
  }
});
send({ type: 'sandbox:ready', height: document.documentElement.scrollHeight });
})();`;
  return page({ locale: options.locale, title: t('frame.title'), nonce: options.nonce, body, script });
}

/** The 3-D Secure test page: the buyer approves or fails the check; the parent hears how it ended. */
export function challengePage(options: {
  locale: Locale;
  nonce: string;
  parentOrigin: string;
  chargeId: string;
  charge: { amount: number; currency: CurrencyCode; returnUrl: string | null } | undefined;
}): string {
  const t = (key: string) => translate(options.locale, `gateway.challenge.${key}`);
  const amount = options.charge
    ? new Intl.NumberFormat(options.locale, { style: 'currency', currency: options.charge.currency }).format(
        options.charge.amount / 100,
      )
    : '';
  const body = options.charge
    ? `<main><h1>${escapeHtml(t('title'))}</h1><p>${escapeHtml(t('body').replace('{amount}', amount))}</p>
<p class="row"><button type="button" class="primary" id="approve">${escapeHtml(t('approve'))}</button>
<button type="button" id="fail">${escapeHtml(t('fail'))}</button></p><p id="status" role="status"></p></main>`
    : `<main><h1>${escapeHtml(t('title'))}</h1><p>${escapeHtml(t('missing'))}</p></main>`;
  const script = `(() => {
const parentOrigin = ${scriptJson(options.parentOrigin)};
const chargeId = ${scriptJson(options.chargeId)};
const returnUrl = ${scriptJson(options.charge?.returnUrl ?? null)};
const done = ${scriptJson(t('done'))};
async function answer(outcome) {
  for (const button of document.querySelectorAll('button')) button.disabled = true;
  const response = await fetch('/challenge/' + encodeURIComponent(chargeId), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ outcome }) });
  const charge = await response.json();
  document.getElementById('status').textContent = done;
  const message = { type: 'sandbox:challenge', chargeId, status: charge.status };
  if (window.parent !== window) window.parent.postMessage(message, parentOrigin);
  else if (window.opener) window.opener.postMessage(message, parentOrigin);
  else if (returnUrl) { const url = new URL(returnUrl); url.searchParams.set('charge', chargeId); location.assign(url.href); }
}
for (const outcome of ['approve', 'fail']) document.getElementById(outcome)?.addEventListener('click', () => answer(outcome));
})();`;
  return page({ locale: options.locale, title: t('title'), nonce: options.nonce, body, script });
}
