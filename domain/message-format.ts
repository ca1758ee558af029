/**
 * The messages' own format (decision 062): ICU MessageFormat's placeholders and plurals, read with
 * the platform's plural rules (`Intl.PluralRules`), the same in the browser, on the server and in
 * the mails.
 *
 * - `{name}` is the value as given; a value not given leaves the placeholder as it is.
 * - `{name, plural, =0 {no devices} one {# device} other {# devices}}` takes the form the language's
 *   rules give for the number (`=N` first, then its category, then `other`); `#` in the form is
 *   the number, grouped as the language writes it.
 *
 * Only these two are needed by the messages; anything else in braces is left as written.
 */

export type MessageValues = Readonly<Record<string, unknown>>;

const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();

/** The language's rules, made once per language. */
function rulesOf(locale: string): Intl.PluralRules {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return rules;
}

function numberOf(locale: string): Intl.NumberFormat {
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale);
    numberFormats.set(locale, format);
  }
  return format;
}

/** The index of the brace closing the one at `open`, or -1. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    if (text[i] === '{') depth += 1;
    else if (text[i] === '}') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

export interface PluralArgument {
  name: string;
  /** The forms by selector, in the order written: `=0`, `one`, `other`, … */
  forms: Map<string, string>;
}

/** Reads `name, plural, sel {form} …` (the text between a plural placeholder's braces), or null. */
export function parsePlural(inner: string): PluralArgument | null {
  const head = /^\s*(\w+)\s*,\s*plural\s*,/.exec(inner);
  if (!head?.[1]) return null;
  const forms = new Map<string, string>();
  let rest = inner.slice(head[0].length);
  while (rest.trim() !== '') {
    const selector = /^\s*(=\d+|zero|one|two|few|many|other)\s*\{/.exec(rest);
    if (!selector?.[1]) return null;
    const open = selector[0].length - 1;
    const end = closing(rest, open);
    if (end < 0 || forms.has(selector[1])) return null;
    forms.set(selector[1], rest.slice(open + 1, end));
    rest = rest.slice(end + 1);
  }
  return forms.has('other') ? { name: head[1], forms } : null;
}

/** Every placeholder of a message: its name, and the plural's forms when it is one. */
export function placeholdersOf(text: string): { name: string; plural?: PluralArgument }[] {
  const found: { name: string; plural?: PluralArgument }[] = [];
  for (let i = text.indexOf('{'); i >= 0; i = text.indexOf('{', i + 1)) {
    const end = closing(text, i);
    if (end < 0) break;
    const inner = text.slice(i + 1, end);
    const plural = parsePlural(inner);
    if (plural) {
      found.push({ name: plural.name, plural });
      for (const form of plural.forms.values()) found.push(...placeholdersOf(form));
      i = end;
    } else if (/^\w+$/.test(inner)) found.push({ name: inner });
  }
  return found;
}

function pluralForm(argument: PluralArgument, value: unknown, locale: string): string | undefined {
  if (typeof value !== 'number' && typeof value !== 'string') return undefined;
  const count = typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value);
  // A value given already written out (`1,000`) takes the general form, as it is.
  if (!Number.isFinite(count)) return argument.forms.get('other')?.replace(/#/g, String(value));
  const form =
    argument.forms.get(`=${count}`) ?? argument.forms.get(rulesOf(locale).select(count)) ?? argument.forms.get('other');
  return form?.replace(/#/g, numberOf(locale).format(count));
}

/** The message with its placeholders filled in, in the language `locale` (a BCP 47 tag). */
export function formatMessage(text: string, values: MessageValues | undefined, locale: string): string {
  if (!values || !text.includes('{')) return text;
  let out = '';
  let from = 0;
  for (let i = text.indexOf('{'); i >= 0; i = text.indexOf('{', from)) {
    const end = closing(text, i);
    if (end < 0) break;
    const inner = text.slice(i + 1, end);
    let replacement: string | undefined;
    if (/^\w+$/.test(inner)) {
      const value = values[inner];
      if (typeof value === 'string' || typeof value === 'number') replacement = String(value);
    } else {
      const plural = parsePlural(inner);
      const form = plural && pluralForm(plural, values[plural.name], locale);
      if (form !== undefined && form !== null) replacement = formatMessage(form, values, locale);
    }
    out += text.slice(from, i) + (replacement ?? text.slice(i, end + 1));
    from = end + 1;
  }
  return out + text.slice(from);
}
