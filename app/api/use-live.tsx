import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type FormEvent,
} from 'react';
import { useNavigation, useRevalidator } from 'react-router';
import type { ServiceName } from '../../domain/entities/services';
import type { Locale } from '../../domain/locales';
import type { Live } from './live';

/**
 * The portal's live connection in React (decision 027). The layout opens it after hydration with a
 * dynamic import, so the Feathers client and socket.io reach portal pages only, and only once they
 * run; pages listen through `useLiveRefresh`.
 */

const LiveContext = createContext<Live | null>(null);
export const LiveProvider = LiveContext.Provider;

/**
 * The page's own sign-out route: clears the session cookie (and ends the session if still valid).
 * A session lost rather than ended by the member (`lost`) leaves the "please log in again" notice.
 */
async function signOutPage(locale: Locale, lost: boolean): Promise<void> {
  const body = new URLSearchParams(lost ? { reason: 'expired' } : {});
  await fetch(`/${locale}/logout`, { method: 'POST', body, credentials: 'same-origin', redirect: 'manual' }).catch(
    () => undefined,
  );
}

/** Forgets the display data kept for the signed-in user. */
function forgetUser(): void {
  try {
    localStorage.removeItem('login');
    localStorage.removeItem('profile');
  } catch {
    // Storage may be refused; nothing else to forget.
  }
}

/**
 * Opens the live connection for the portal's pages. A lost session sends the member to sign in
 * (back to this page afterwards); a socket that comes back refreshes the page's data.
 */
export function useLiveConnection(locale: Locale): {
  live: Live | null;
  onLogout: (event: FormEvent<HTMLFormElement>) => void;
} {
  const [live, setLive] = useState<Live | null>(null);
  const revalidator = useRevalidator();
  // The latest one, for the callback the connection keeps.
  const current = useRef(revalidator);
  current.current = revalidator;
  /** Stops the connection, or the one still loading: the member is leaving. */
  const stop = useRef<() => void>(() => undefined);

  useEffect(() => {
    let stopped = false;
    let opened: Live | null = null;
    stop.current = () => {
      stopped = true;
      opened?.close();
    };
    import('./connect')
      .then(({ connectLive }) => {
        if (stopped) return;
        opened = connectLive({
          async onLoggedOut() {
            forgetUser();
            await signOutPage(locale, true);
            opened?.close();
            // A whole new page: every part of it (the header's user, the notice) is read afresh.
            const { pathname, search } = window.location;
            window.location.replace(`/${locale}/login?from=${encodeURIComponent(pathname + search)}`);
          },
          onReconnected() {
            void current.current.revalidate();
          },
        });
        setLive(opened);
      })
      .catch(() => undefined);
    return () => {
      stop.current();
      setLive(null);
    };
  }, [locale]);

  /**
   * The header's logout form. With the connection up: the socket signs the session out (the token
   * stops working everywhere), then the page's route clears the cookie, then the home page. Before
   * that, the form posts as it does without scripts, and the connection still loading is dropped
   * (a ticket refused for the session just ended must not send the member to the login page).
   */
  const onLogout = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      if (!live) {
        stop.current();
        return;
      }
      event.preventDefault();
      void (async () => {
        await live.logout().catch(() => undefined);
        forgetUser();
        await signOutPage(locale, false);
        live.close();
        window.location.replace(`/${locale}`);
      })();
    },
    [live, locale],
  );

  return { live, onLogout };
}

const EVENTS = ['created', 'patched', 'updated', 'removed'] as const;
/** Several events often come from one change (an order, its subscription, its invoice): one refresh. */
const REFRESH_DELAY_MS = 150;

/** Refreshes the page's data when one of these services announces a change the member may see (none: nothing). */
export function useLiveRefresh(paths: readonly ServiceName[]): void {
  const live = useContext(LiveContext);
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  // While the page is going elsewhere (a link, the back button) its data is read anyway: a refresh
  // then would race the navigation and could show the old page's rows under the new address.
  const busy = useRef(false);
  busy.current = navigation.state !== 'idle' || revalidator.state !== 'idle';
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  // The paths named now; the listening changes only when their names do, not with each new array.
  const watched = useRef(paths);
  watched.current = paths;
  const key = paths.join(',');
  useEffect(() => {
    if (!live || !key) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      clearTimeout(timer);
      // Waits for a navigation or a refresh under way to end first.
      const run = () => {
        if (busy.current) timer = setTimeout(run, REFRESH_DELAY_MS);
        else void revalidate.current();
      };
      timer = setTimeout(run, REFRESH_DELAY_MS);
    };
    const stops = watched.current.flatMap((path) => EVENTS.map((event) => live.on(path, event, refresh)));
    return () => {
      clearTimeout(timer);
      for (const stop of stops) stop();
    };
  }, [live, key]);
}

/** The page's live connection, once it is open (null before, and without scripts). */
export function useLive(): Live | null {
  return useContext(LiveContext);
}

const neverUp = () => () => undefined;

/** Whether the page's live connection is up (connected and signed in) now; false before it opens and on the server. */
export function useLiveUp(): boolean {
  const live = useContext(LiveContext);
  return useSyncExternalStore(
    live ? (changed) => live.onUp(changed) : neverUp,
    () => live?.up ?? false,
    () => false,
  );
}
