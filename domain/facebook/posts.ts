/**
 * A Facebook page's posts as the import reads them (decision 060): from the JSON of the page
 * owner's "Download your information" export, or from the Graph API's `/{page}/posts`, made into
 * one shape, and what a post becomes as a draft news item (its title, its rich content, its
 * language). Pure functions: the server reads the files and the network.
 */

/** A picture of a post: a path inside the export's archive (`posts/media/…`) or an address. */
export interface FacebookPicture {
  uri: string;
  description?: string;
}

export interface FacebookPost {
  /** The post's identity across imports and sources (the news item's `facebookSourceId`). */
  sourceId: string;
  /** When it was posted (ISO 8601). */
  time: string;
  text: string;
  pictures: FacebookPicture[];
  /** The address a shared link points at, if the post shares one. */
  link?: string;
}

/** What a post's text is written in, as the news' languages go. */
export type PostLanguage = 'en' | 'zh-hk';

/** The most posts one import takes; the most pictures of one post. */
export const FACEBOOK_LIMITS = { posts: 5000, picturesPerPost: 20, textChars: 50_000 } as const;

/** Why an export is refused: a message key under `facebook.errors`. */
export class ExportRefused extends Error {
  readonly key: string;
  constructor(key: 'notJson' | 'notPosts' | 'empty' | 'tooMany' | 'noPostsFile' | 'badArchive') {
    super(`facebook.errors.${key}`);
    this.key = `facebook.errors.${key}`;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Facebook writes its exports' text as UTF-8 bytes escaped one by one as latin-1 characters
 * (`\u00e6\u0088\u0091` for 我). A string whose characters are all below U+0100 and whose bytes
 * are valid UTF-8 is read back as UTF-8; any other string is kept as it is (a true `café` is not
 * valid UTF-8 as bytes, so it stays).
 */
export function undoMojibake(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[\u0080-\u00ff]/.test(text) || /[^\u0000-\u00ff]/.test(text)) return text;
  try {
    return utf8.decode(Uint8Array.from(text, (char) => char.charCodeAt(0)));
  } catch {
    return text;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const stringOf = (value: unknown): string => (typeof value === 'string' ? undoMojibake(value) : '');

/** A short, stable hash (FNV-1a, 64 bits as hex) of a text: the part of a post's identity its words give. */
function hashOf(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

/**
 * A post's identity: its second and its words (an export gives no post ids; the Graph API gives
 * the same second and words for the same post), so a post is known again from either source.
 */
export function sourceIdOf(seconds: number, text: string): string {
  return `fb:${seconds}:${hashOf(text.normalize('NFC').trim())}`;
}

/** The text of an export's post: its `data[].post` parts. */
function exportText(post: Record<string, unknown>): string {
  const data = Array.isArray(post.data) ? post.data : [];
  return data
    .map((part) => (isObject(part) ? stringOf(part.post) : ''))
    .filter((part) => part !== '')
    .join('\n\n')
    .slice(0, FACEBOOK_LIMITS.textChars);
}

/** The pictures and the shared link of an export's post (`attachments[].data[]`). */
function exportAttachments(post: Record<string, unknown>): { pictures: FacebookPicture[]; link?: string } {
  const pictures: FacebookPicture[] = [];
  let link: string | undefined;
  for (const attachment of Array.isArray(post.attachments) ? post.attachments : []) {
    if (!isObject(attachment) || !Array.isArray(attachment.data)) continue;
    for (const item of attachment.data) {
      if (!isObject(item)) continue;
      if (isObject(item.media) && typeof item.media.uri === 'string') {
        const description = stringOf(item.media.description) || stringOf(item.media.title);
        pictures.push({ uri: item.media.uri, ...(description ? { description } : {}) });
      }
      const context = isObject(item.external_context) ? item.external_context : undefined;
      if (!link && context && typeof context.url === 'string' && /^https?:\/\//.test(context.url)) link = context.url;
    }
  }
  return { pictures: pictures.slice(0, FACEBOOK_LIMITS.picturesPerPost), ...(link ? { link } : {}) };
}

/** The posts array of an export's JSON: the array itself, or `{ status_updates_v2: [...] }` and the like. */
function postsArray(json: unknown): unknown[] {
  if (Array.isArray(json)) return json;
  if (isObject(json)) {
    const arrays = Object.values(json).filter(Array.isArray);
    if (arrays.length === 1 && arrays[0]) return arrays[0];
  }
  throw new ExportRefused('notPosts');
}

/**
 * The posts of an export's `your_posts_1.json` text, oldest first. Refused (`ExportRefused`) when
 * it is not JSON, not a list of posts (each with its `timestamp`), or holds none.
 */
export function readExportPosts(text: string): FacebookPost[] {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new ExportRefused('notJson');
  }
  const raw = postsArray(json);
  if (raw.length > FACEBOOK_LIMITS.posts) throw new ExportRefused('tooMany');
  const posts: FacebookPost[] = [];
  for (const entry of raw) {
    if (!isObject(entry) || typeof entry.timestamp !== 'number' || !Number.isInteger(entry.timestamp))
      throw new ExportRefused('notPosts');
    const text = exportText(entry);
    const { pictures, link } = exportAttachments(entry);
    // A post that says nothing and shows nothing (a profile's "updated their cover") is not news.
    if (!text && pictures.length === 0 && !link) continue;
    posts.push({
      sourceId: sourceIdOf(entry.timestamp, text),
      time: new Date(entry.timestamp * 1000).toISOString(),
      text,
      pictures,
      ...(link ? { link } : {}),
    });
  }
  if (posts.length === 0) throw new ExportRefused('empty');
  return posts.sort((a, b) => a.time.localeCompare(b.time));
}

/** The images of a Graph attachment: its sub-attachments' (an album), else its own. */
function graphPictures(attachment: Record<string, unknown>): string[] {
  const sub = isObject(attachment.subattachments) && Array.isArray(attachment.subattachments.data);
  const items = sub ? ((attachment.subattachments as { data: unknown[] }).data as unknown[]) : [attachment];
  return items.flatMap((item) => {
    const media = isObject(item) && isObject(item.media) ? item.media : undefined;
    const image = media && isObject(media.image) ? media.image : undefined;
    return image && typeof image.src === 'string' ? [image.src] : [];
  });
}

/**
 * One page of the Graph API's `/{page}/posts` answer: its posts and the address of the next page.
 * Refused as `notPosts` when it is not such an answer.
 */
export function readGraphPage(json: unknown): { posts: FacebookPost[]; next: string | null } {
  if (!isObject(json) || !Array.isArray(json.data)) throw new ExportRefused('notPosts');
  const posts: FacebookPost[] = [];
  for (const entry of json.data) {
    if (!isObject(entry) || typeof entry.created_time !== 'string') continue;
    const time = new Date(entry.created_time.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
    if (Number.isNaN(time.getTime())) continue;
    const text = (typeof entry.message === 'string' ? entry.message : '').slice(0, FACEBOOK_LIMITS.textChars);
    const attachments =
      isObject(entry.attachments) && Array.isArray(entry.attachments.data) ? entry.attachments.data : [];
    let pictures = attachments.flatMap((attachment) => (isObject(attachment) ? graphPictures(attachment) : []));
    if (pictures.length === 0 && typeof entry.full_picture === 'string') pictures = [entry.full_picture];
    const shared = attachments.find(
      (attachment) => isObject(attachment) && attachment.type === 'share' && typeof attachment.url === 'string',
    ) as { url: string } | undefined;
    if (!text && pictures.length === 0 && !shared) continue;
    posts.push({
      sourceId: sourceIdOf(Math.floor(time.getTime() / 1000), text),
      time: time.toISOString(),
      text,
      pictures: [...new Set(pictures)].slice(0, FACEBOOK_LIMITS.picturesPerPost).map((uri) => ({ uri })),
      ...(shared && /^https?:\/\//.test(shared.url) ? { link: shared.url } : {}),
    });
  }
  const paging = isObject(json.paging) ? json.paging : {};
  return { posts, next: typeof paging.next === 'string' ? paging.next : null };
}

/**
 * The language a post is written in: Chinese when a good part of its letters are Han characters
 * (Hong Kong's Traditional Chinese, the company's home), English otherwise.
 */
export function languageOf(text: string): PostLanguage {
  const han = text.match(/\p{Script=Han}/gu)?.length ?? 0;
  const latin = text.match(/\p{Script=Latin}/gu)?.length ?? 0;
  // A Han character says about as much as a Latin word: a few in English text are names.
  return han > 0 && han * 4 >= latin ? 'zh-hk' : 'en';
}

/** The title's limit: the news title's (domain/entities/news.ts). */
export const TITLE_MAX = 200;

/** A post's title: the first line of its text, cut to the title's limit at a character. */
export function titleOf(post: FacebookPost, fallback: string): string {
  const line =
    post.text
      .split(/\r?\n/)
      .map((part) => part.trim())
      .find((part) => part !== '') ?? '';
  const chars = [...(line || fallback)];
  return chars.length <= TITLE_MAX ? chars.join('') : `${chars.slice(0, TITLE_MAX - 1).join('')}…`;
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const URL_PATTERN = /https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]}，。、！？）]/g;

/** A line's text with its addresses as links (escaped as HTML). */
function linked(line: string): string {
  let html = '';
  let last = 0;
  for (const match of line.matchAll(URL_PATTERN)) {
    const index = match.index;
    html += escapeHtml(line.slice(last, index));
    const url = escapeHtml(match[0]);
    html += `<a href="${url}">${url}</a>`;
    last = index + match[0].length;
  }
  return html + escapeHtml(line.slice(last));
}

/**
 * A post's text as rich content: a paragraph per line (the editor's rich text has no line break
 * inside a paragraph), addresses as links; then the shared link, and the pictures after the first
 * (which is the item's image).
 */
export function contentOf(post: FacebookPost, pictureUrls: readonly string[]): string {
  const paragraphs = post.text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => `<p>${linked(line)}</p>`);
  if (post.link && !post.text.includes(post.link)) paragraphs.push(`<p>${linked(post.link)}</p>`);
  for (const url of pictureUrls.slice(1)) paragraphs.push(`<img src="${escapeHtml(url)}" alt="">`);
  return paragraphs.join('') || '<p></p>';
}
