import { useEffect, useRef } from 'react';
import { useRouteChange } from './use-route-change';

/**
 * A dropdown built on <details>: it opens by mouse, Enter or Space without JavaScript. With it,
 * Escape closes and returns focus to the button, a click outside closes, arrow keys move between
 * the items, and a route change closes it.
 */
export function Menu({
  label,
  children,
  className = '',
  panelClassName = '',
}: {
  label: React.ReactNode;
  children: React.ReactNode;
  className?: string;
  panelClassName?: string;
}) {
  const ref = useRef<HTMLDetailsElement>(null);

  useRouteChange(() => {
    if (ref.current) ref.current.open = false;
  });

  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const items = () => [...details.querySelectorAll<HTMLElement>('[data-menu-item]')];
    const onKey = (event: KeyboardEvent) => {
      if (!details.open) return;
      if (event.key === 'Escape') {
        details.open = false;
        details.querySelector('summary')?.focus();
        return;
      }
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
      event.preventDefault();
      const list = items();
      const index = list.indexOf(document.activeElement as HTMLElement);
      const next = event.key === 'ArrowDown' ? (index + 1) % list.length : (index <= 0 ? list.length : index) - 1;
      list[next]?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (details.open && !details.contains(event.target as Node)) details.open = false;
    };
    details.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      details.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, []);

  return (
    <details ref={ref} className={`group relative ${className}`}>
      {label}
      <div
        className={`absolute z-50 mt-2 min-w-56 rounded-lg border border-line bg-raised p-2 text-ink shadow-xl ${panelClassName}`}
      >
        {children}
      </div>
    </details>
  );
}
