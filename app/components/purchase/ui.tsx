import { forwardRef } from 'react';
import { STEPS, type Step } from '../../../domain/purchase/subscription-form';
import { useLocale } from '../../i18n/messages';
import { secondaryButton } from '../ui/buttons';

/** The flow's buttons, in the site's styles (shared with the portal). */
export { primaryButton, secondaryButton, smallButton } from '../ui/buttons';

/**
 * Where the buyer is: on a phone "Step 3 of 8" with its name and a bar; on wider screens every
 * step by name, those already passed as buttons back to them.
 */
export function StepProgress({ step, frontier, onGo }: { step: Step; frontier: Step; onGo: (step: Step) => void }) {
  const { t } = useLocale();
  const current = STEPS.indexOf(step);
  const reachable = STEPS.indexOf(frontier);
  return (
    <nav aria-label={t('subscription.progress.label')} data-testid="step-progress">
      <div className="md:hidden">
        <p className="text-sm font-semibold">
          {t('subscription.progress.of', { current: current + 1, total: STEPS.length })}
          <span className="text-muted"> · {t(`subscription.steps.${step}.short`)}</span>
        </p>
        <div className="mt-2 h-2 overflow-hidden rounded-full bg-sunken" aria-hidden="true">
          <div
            className="h-full rounded-full bg-brand-600 dark:bg-brand-400"
            style={{ width: `${((current + 1) / STEPS.length) * 100}%` }}
          />
        </div>
      </div>
      <ol className="hidden gap-1 md:flex">
        {STEPS.map((item, index) => {
          const done = index < current;
          const label = (
            <>
              <span
                aria-hidden="true"
                className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-sm font-bold ${
                  index === current
                    ? 'bg-brand-700 text-white dark:bg-brand-400 dark:text-brand-950'
                    : done
                      ? 'bg-brand-100 text-brand-800 dark:bg-brand-900 dark:text-brand-200'
                      : 'border border-line text-muted'
                }`}
              >
                {done ? '✓' : index + 1}
              </span>
              <span className={`truncate text-sm ${index === current ? 'font-semibold' : 'text-muted'}`}>
                {t(`subscription.steps.${item}.short`)}
              </span>
            </>
          );
          return (
            <li
              key={item}
              className="flex min-w-0 flex-1 flex-col gap-2"
              aria-current={index === current ? 'step' : undefined}
            >
              <div
                className={`h-1 rounded-full ${index <= current ? 'bg-brand-600 dark:bg-brand-400' : 'bg-sunken'}`}
                aria-hidden="true"
              />
              {index !== current && index <= reachable ? (
                <button
                  type="button"
                  onClick={() => onGo(item)}
                  className="flex min-w-0 items-center gap-2 rounded-md text-left hover:underline"
                >
                  {label}
                </button>
              ) : (
                <span className="flex min-w-0 items-center gap-2">{label}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** The step's heading: the focus moves to it on every step change, so a screen reader starts there. */
export const StepHeading = forwardRef<HTMLHeadingElement, { children: React.ReactNode }>(function StepHeading(
  { children },
  ref,
) {
  return (
    <h1
      ref={ref}
      id="step-heading"
      tabIndex={-1}
      className="text-3xl font-bold tracking-tight focus:outline-none sm:text-4xl"
      data-testid="step-heading"
    >
      {children}
    </h1>
  );
});

/** Back and forward at the foot of a step. */
export function StepActions({ onBack, children }: { onBack?: () => void; children?: React.ReactNode }) {
  const { t } = useLocale();
  return (
    <div className="mt-8 flex flex-wrap-reverse items-center justify-between gap-3 border-t border-line pt-6">
      {onBack ? (
        <button type="button" onClick={onBack} className={secondaryButton} data-testid="step-back">
          ← {t('subscription.back')}
        </button>
      ) : (
        <span />
      )}
      {children}
    </div>
  );
}
