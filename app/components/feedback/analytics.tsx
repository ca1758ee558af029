import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** The page view goes to the tag manager 250 ms after a route change (spec section 9). */
export const ANALYTICS_DELAY_MS = 250;

declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[];
  }
}

/**
 * Pushes a page view to `dataLayer` after each route change; only rendered when a container is
 * configured. The document's own page view is pushed by the page's inline script
 * (`BEFORE_HYDRATION_SCRIPT`), counted even if the page never hydrates, so the location the page
 * hydrated on is left out (by identity: going back to it later is a route change like any other).
 */
export function RouteAnalytics({ locale }: { locale: string }) {
  const location = useLocation();
  const documentLocation = useRef(location);
  useEffect(() => {
    if (location === documentLocation.current) return;
    const timer = setTimeout(() => {
      window.dataLayer ??= [];
      window.dataLayer.push({
        event: 'pageview',
        page_path: location.pathname + location.search,
        page_title: document.title,
        language: locale,
      });
    }, ANALYTICS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [location.pathname, location.search, locale]);
  return null;
}

/** Google Tag Manager's loader, with the page's CSP nonce. */
export function tagManagerScript(gtmId: string): string {
  const id = JSON.stringify(gtmId);
  return `window.dataLayer=window.dataLayer||[];window.dataLayer.push({'gtm.start':Date.now(),event:'gtm.js'});(function(){var s=document.createElement('script');s.async=true;s.src='https://www.googletagmanager.com/gtm.js?id='+encodeURIComponent(${id});var n=document.querySelector('script[nonce]');if(n&&n.nonce)s.nonce=n.nonce;document.head.appendChild(s)})();`;
}
