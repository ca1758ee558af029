import { useEffect, useState } from 'react';
import { useFetchers, useNavigation } from 'react-router';
import { useLocale } from '../../i18n/messages';

/** Quick answers show nothing; the bar appears only when loading lasts past 200 ms (spec section 9). */
export const LOADING_DELAY_MS = 200;

export function LoadingBar() {
  const { t } = useLocale();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== 'idle' || fetchers.some((fetcher) => fetcher.state !== 'idle');
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (!busy) {
      setVisible(false);
      return;
    }
    // Marks the document while something loads (and the delay runs), for styles and for tests
    // that need to know the delay has started; the cleanup unmarks it, also on unmount.
    const root = document.documentElement;
    root.dataset.busy = '';
    const timer = setTimeout(() => setVisible(true), LOADING_DELAY_MS);
    return () => {
      clearTimeout(timer);
      delete root.dataset.busy;
    };
  }, [busy]);

  if (!visible) return null;
  return (
    <div
      role="progressbar"
      aria-label={t('feedback.loading')}
      aria-busy="true"
      className="fixed inset-x-0 top-0 z-[60] h-1 overflow-hidden bg-brand-100"
    >
      <div className="h-full w-1/3 animate-[loading_1.1s_ease-in-out_infinite] bg-accent-500" />
      <style>{'@keyframes loading{0%{transform:translateX(-100%)}100%{transform:translateX(300%)}}'}</style>
    </div>
  );
}
