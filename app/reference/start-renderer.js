/*
 * Starts the API reference's renderer on `/{lang}/developers/api` (decision 058). The page sends
 * the OpenAPI document of the reader's role in a JSON data block and the renderer's bundle (Redoc,
 * served from our own origin) in `data-renderer`; until the renderer has drawn the reference, and
 * where scripts never run, the page's own server-rendered reference stays. Plain JavaScript, copied
 * as is beside the pages' assets: this page sends no framework script.
 */
const host = document.getElementById('api-reference');
const source = document.getElementById('api-document');
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

if (host && source && host.dataset.renderer) {
  const document_ = JSON.parse(source.textContent || '{}');
  tellTheme();
  const drawn = new MutationObserver(() => {
    nameSidebar();
    keepSiteTheme();
    if (host.querySelector('a[href^="#/"]')) {
      host.hidden = false;
      for (const fallback of document.querySelectorAll('[data-reference-fallback]')) fallback.hidden = true;
      root.setAttribute('data-reference-ready', '');
    }
  });
  drawn.observe(host, { childList: true, subtree: true });
  import(host.dataset.renderer)
    .then(({ init }) =>
      init(
        document_,
        {
          disableTelemetry: true,
          hideDownloadButtons: true,
          hideTryItPanel: true,
          sanitize: true,
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
