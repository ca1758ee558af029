import sanitizeHtml from 'sanitize-html';

/** Width and height of an image: a plain number of pixels, nothing else. */
const DIMENSION = /^\d{1,4}$/;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['h2', 'h3', 'h4', 'p', 'ul', 'ol', 'li', 'strong', 'em', 'a', 'blockquote', 'img'],
  allowedAttributes: {
    a: ['href', 'rel'],
    img: ['src', 'alt', 'width', 'height', 'loading'],
  },
  // Links may go anywhere on the web or to an email address; images only come from this site
  // (relative paths) or over https. Protocol-relative `//host` URLs are refused.
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // Scripts, styles and the like go with their content; other unknown tags leave their text.
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'noopener' } }),
    img: (tagName, attribs) => {
      const kept: Record<string, string> = { loading: 'lazy' };
      for (const name of ['src', 'alt'] as const) if (attribs[name] !== undefined) kept[name] = attribs[name];
      for (const name of ['width', 'height'] as const)
        if (DIMENSION.test(attribs[name] ?? '')) kept[name] = attribs[name] as string;
      return { tagName, attribs: kept };
    },
  },
  // An image without a source is nothing.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

/**
 * Cleans an article's HTML: headings h2 to h4, paragraphs, lists, strong and em, links
 * (http, https, mailto; rel="noopener"), block quotes and images (same-site or https). Everything
 * else is removed: scripts, styles, event handler attributes, `javascript:` and `data:` URLs.
 */
export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
