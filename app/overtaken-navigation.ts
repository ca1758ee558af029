/**
 * A navigation the visitor overtakes (a second click, the back button, a link followed while a
 * page loads) is aborted, and the router rejects its promise with the signal's AbortError. Links
 * and forms start navigations nobody awaits, so that rejection would surface as an unhandled
 * error of the page. An abort is a cancellation, never a fault: it is let go here, for every
 * caller at once; every other rejection still surfaces.
 */
export function isAbort(reason: unknown): boolean {
  return (reason as { name?: unknown } | null)?.name === 'AbortError';
}

export function installOvertakenNavigation(): void {
  window.addEventListener('unhandledrejection', (event) => {
    if (isAbort(event.reason)) event.preventDefault();
  });
}
