/**
 * After a deploy, an open page may ask for a script chunk that no longer exists. The page then
 * reloads once to get the new build, at most once per 60 s so a chunk that keeps failing cannot
 * loop (spec section 8). The last reload time lives in sessionStorage.
 */
export const CHUNK_RELOAD_KEY = 'chunk-reload-at';
export const CHUNK_RELOAD_INTERVAL_MS = 60_000;

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return CHUNK_ERROR.test(message);
}

/** Reloads unless a reload for the same reason happened within the last minute; answers whether it did. */
export function reloadForChunk(now = Date.now()): boolean {
  let last: number;
  try {
    last = Number(sessionStorage.getItem(CHUNK_RELOAD_KEY)) || 0;
  } catch {
    // Without storage there is no loop guard: do not reload.
    return false;
  }
  if (now - last < CHUNK_RELOAD_INTERVAL_MS) return false;
  sessionStorage.setItem(CHUNK_RELOAD_KEY, String(now));
  window.location.reload();
  return true;
}

export function installChunkReload(): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadForChunk()) event.preventDefault();
  });
  window.addEventListener('unhandledrejection', (event) => {
    if (isChunkLoadError(event.reason) && reloadForChunk()) event.preventDefault();
  });
}
