/*
 * Starts the API reference's renderer on `/{lang}/developers/api` (decision 058). The page names
 * the renderer's bundle (Redoc, served from our own origin) in `data-renderer` and the OpenAPI
 * document in `data-document` (`/api/openapi.json`, which reads the page's session cookie, so it is
 * the reader's role's); both are fetched at once. Until the renderer has drawn the reference, and
 * where scripts never run, the page's own server-rendered reference stays. Plain JavaScript, copied
 * as is beside the pages' assets: this page sends no framework script.
 */
const host = document.getElementById('api-reference');
const root = document.documentElement;

/** The site's theme, told to the renderer before it starts (it reads `redoc.colorMode`). */
function tellTheme() {
  try {
    localStorage.setItem('redoc.colorMode', root.classList.contains('dark') ? 'dark' : 'light');
  } catch {
    // Storage refused (a private mode): the renderer follows the system's scheme, as the site does.
  }
}

/**
 * The renderer marks `<html>` with its own `light` or `dark` class as it starts; the site's `dark`
 * class (its theme toggle) is the one that counts, so the renderer's `light` is taken back.
 */
function keepSiteTheme() {
  root.classList.remove('light');
}

/**
 * The renderer's sidebar (its search and its list of services) is a plain block beside its own
 * `<main>`: named as the page's navigation, so that every part of the page is in a landmark.
 */
function nameSidebar() {
  const menu = host.querySelector('[data-component-name="Menu/Menu"]');
  const main = host.querySelector('main');
  if (!menu || !main) return;
  let side = menu;
  while (side.parentElement && side.parentElement !== host && !side.parentElement.contains(main))
    side = side.parentElement;
  if (side.getAttribute('role') === 'navigation') return;
  side.setAttribute('role', 'navigation');
  side.setAttribute('aria-label', host.dataset.navigationLabel || 'API');
}

/**
 * Redoc's sidebar signs its work with its maker's logo from their CDN (no option turns it off),
 * which the page's policy refuses, with a console error. The picture is asked for where React sets
 * its `src`: images from that host get a drawn wordmark instead, so nothing leaves the origin.
 */
const FOREIGN_LOGO = /^https:\/\/cdn\.redoc\.ly\//;
const WORDMARK = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="16" viewBox="0 0 64 16">' +
    '<text x="0" y="12" font-family="system-ui, sans-serif" font-size="12" font-weight="600" fill="#5a6270">Redocly</text></svg>',
)}`;
function keepLogoHome() {
  const image = HTMLImageElement.prototype;
  const setAttribute = Element.prototype.setAttribute;
  image.setAttribute = function (name, value) {
    const local = name === 'src' && FOREIGN_LOGO.test(String(value)) ? WORDMARK : value;
    setAttribute.call(this, name, local);
  };
  const src = Object.getOwnPropertyDescriptor(image, 'src');
  if (src?.set)
    Object.defineProperty(image, 'src', {
      ...src,
      set(value) {
        src.set.call(this, FOREIGN_LOGO.test(String(value)) ? WORDMARK : value);
      },
    });
}

/** The reader's document, from the API (the preload in the page's head has it on its way). */
async function readDocument(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`The API reference's document answered ${response.status}`);
  return response.json();
}

if (host && host.dataset.renderer && host.dataset.document) {
  keepLogoHome();
  const reading = readDocument(host.dataset.document);
  tellTheme();
  const drawn = new MutationObserver(() => {
    nameSidebar();
    keepSiteTheme();
    if (host.querySelector('a[href^="#/"]')) {
      host.hidden = false;
      for (const fallback of document.querySelectorAll('[data-reference-fallback]')) fallback.hidden = true;
      if (!root.hasAttribute('data-reference-ready')) performance.mark('api-reference-drawn');
      root.setAttribute('data-reference-ready', '');
    }
  });
  drawn.observe(host, { childList: true, subtree: true });
  Promise.all([import(host.dataset.renderer), reading])
    .then(([{ init }, document_]) =>
      init(
        document_,
        {
          disableTelemetry: true,
          hideDownloadButtons: true,
          hideTryItPanel: true,
          sanitize: true,
          // Less to write as each operation is drawn: the request examples are the document's own,
          // answers' samples are generated two levels deep and open one level, schemas start closed.
          generatedSamplesMaxDepth: 2,
          jsonSamplesExpandLevel: 1,
          schemasExpansionLevel: 0,
        },
        host,
      ),
    )
    .catch((error) => {
      // The server-rendered reference stays: the page is still whole.
      drawn.disconnect();
      console.warn('The API reference renderer did not start', error);
    });
}
