import { useCallback } from 'react';
import { useLocation } from 'react-router';

/**
 * `?sso` marks the portal embedded in the company's apps (no header or footer): a link followed
 * inside it carries the mark on, so the embedded view stays embedded.
 */
export function withSso(to: string, currentSearch: string): string {
  const sso = new URLSearchParams(currentSearch).get('sso');
  if (sso === null) return to;
  const hash = to.indexOf('#');
  const base = hash === -1 ? to : to.slice(0, hash);
  const fragment = hash === -1 ? '' : to.slice(hash);
  const query = base.indexOf('?');
  const path = query === -1 ? base : base.slice(0, query);
  const params = new URLSearchParams(query === -1 ? '' : base.slice(query + 1));
  if (params.has('sso')) return to;
  params.set('sso', sso);
  // A bare `?sso` stays bare.
  const written = params.toString().replace(/(^|&)sso=(&|$)/, '$1sso$2');
  return `${path}?${written}${fragment}`;
}

/** `withSso` for the current page. */
export function useSsoLink(): (to: string) => string {
  const { search } = useLocation();
  return useCallback((to: string) => withSso(to, search), [search]);
}
