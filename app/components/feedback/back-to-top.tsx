import { useEffect, useState } from 'react';
import { useLocale } from '../../i18n/messages';
import { useStaticPage } from '../layout/static-page';
import { ArrowUpIcon } from '../ui/icons';

const BUTTON =
  'fixed right-5 bottom-24 z-40 grid h-11 w-11 place-items-center rounded-full border border-line bg-raised text-ink shadow-md hover:bg-sunken';

/** Appears once the visitor has scrolled past half a window (spec section 9). */
export function BackToTop() {
  const { t } = useLocale();
  const [visible, setVisible] = useState(false);
  const staticPage = useStaticPage();

  useEffect(() => {
    const update = () => setVisible(window.scrollY > window.innerHeight / 2);
    update();
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update, { passive: true });
    return () => {
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, []);

  if (staticPage) {
    // No React here: a link to the top, hidden until the inline script (static-page.ts) sees the
    // visitor scroll, and which that script makes smooth and moves focus with.
    return (
      <aside aria-label={t('feedback.backToTop')} hidden data-back-to-top="">
        <a href="#top" aria-label={t('feedback.backToTop')} className={BUTTON}>
          <ArrowUpIcon />
        </a>
      </aside>
    );
  }
  if (!visible) return null;
  return (
    <aside aria-label={t('feedback.backToTop')}>
      <button
        type="button"
        onClick={() => {
          const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
          window.scrollTo({ top: 0, behavior: smooth ? 'smooth' : 'auto' });
          // Keyboard users continue from the top of the page.
          document.getElementById('top')?.focus({ preventScroll: true });
        }}
        aria-label={t('feedback.backToTop')}
        className={BUTTON}
      >
        <ArrowUpIcon />
      </button>
    </aside>
  );
}
