import { useEffect } from 'react';
import { isPurchasePath } from '../domain/public-pages';

/*
 * A page's Content Security Policy comes with its document and stays for every page the visitor
 * then reaches in the browser. Only the purchase pages' policy lets the payment provider's card
 * fields be framed (decision 019), so a purchase page reached by a link from another page loads
 * itself again as a document of its own before it shows a card field.
 */

/** The path the document was served for (read once, when the page's scripts start). */
let documentPath: string | null = null;

/** Called at the start of the page's scripts (entry.client.tsx), before any navigation. */
export function rememberDocumentPath(): void {
  documentPath ??= window.location.pathname;
}

/** Whether the document was served as a purchase page (always, on the server). */
export function servedAsPurchasePage(): boolean {
  if (typeof window === 'undefined' || documentPath === null) return true;
  return isPurchasePath(documentPath);
}

/** On a purchase page reached by a link from another page: load it again as a document of its own. */
export function usePurchaseDocument(): void {
  useEffect(() => {
    if (!servedAsPurchasePage()) window.location.replace(window.location.href);
  }, []);
}
