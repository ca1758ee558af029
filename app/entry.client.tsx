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

// The page's messages first (the root layout names their files, the inline script preloads them
// with the modules), so it hydrates with every text it shows; a file that failed is fetched again then.
const files = document.querySelector<HTMLMetaElement>('meta[name="messages"]')?.content.split(' ') ?? [];
Promise.all(files.filter(Boolean).map(loadMessages)).then(hydrate, hydrate);
