import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * Runs `onChange` when the route's path changes, but not on the first render: a visitor may have
 * opened a menu or the drawer natively before the page hydrated, and hydration must not close it.
 */
export function useRouteChange(onChange: () => void): void {
  const { pathname } = useLocation();
  const shownPath = useRef(pathname);
  const callback = useRef(onChange);
  callback.current = onChange;
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    callback.current();
  }, [pathname]);
}
