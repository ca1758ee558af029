import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { installChunkReload } from './chunk-reload';
import { loadMessages } from './i18n/messages';
import { installOvertakenNavigation } from './overtaken-navigation';
import { rememberDocumentPath } from './purchase-document';

rememberDocumentPath();
installChunkReload();
installOvertakenNavigation();

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

// The page's messages first (the root layout names their files, and preloads them with the
// scripts), so it hydrates with every text it shows; a file that fails is fetched again then.
const files = [...document.querySelectorAll<HTMLLinkElement>('link[data-messages]')].map((link) => link.getAttribute('href') ?? '');
Promise.all(files.filter(Boolean).map(loadMessages)).then(hydrate, hydrate);
