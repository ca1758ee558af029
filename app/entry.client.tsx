import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { installChunkReload } from './chunk-reload';
import { installOvertakenNavigation } from './overtaken-navigation';
import { rememberDocumentPath } from './purchase-document';

rememberDocumentPath();
installChunkReload();
installOvertakenNavigation();

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
