import { Link, useLocation } from 'react-router';
import type { Step } from '../../../domain/purchase/subscription-form';
import { useLocale } from '../../i18n/messages';
import { siteLinks, useShell, useSite } from '../../shell';
import { secondaryButton, StepActions } from './ui';

/**
 * Account, email verification and payment: their forms come with the registration, verification
 * and payment services. Until then each step says what it will ask, and nothing pretends to pass.
 */
export function PendingStep({ step, onBack, children }: { step: Step; onBack?: () => void; children?: React.ReactNode }) {
  const { t, locale } = useLocale();
  const { user } = useShell();
  const { site } = useSite();
  const location = useLocation();
  const links = siteLinks(locale, site.brandSlug);
  const here = `${location.pathname}${location.search}`;
  return (
    <div className="mt-6 space-y-4" data-testid={`pending-${step}`}>
      <div className="rounded-2xl border border-line bg-sunken p-5 sm:p-6">
        {step === 'account' && user ? (
          <p data-testid="signed-in-as">{t('subscription.account.signedIn', { name: user.name })}</p>
        ) : (
          <p>{t(`subscription.pending.${step}`)}</p>
        )}
        <p className="mt-2 text-sm text-muted">{t('subscription.pending.saved')}</p>
        {step === 'account' && !user ? (
          <Link to={`${links.login}?${new URLSearchParams({ from: here })}`} className={`${secondaryButton} mt-4`} data-testid="account-sign-in">
            {t('subscription.account.signIn')}
          </Link>
        ) : null}
      </div>
      <StepActions onBack={onBack}>{children}</StepActions>
    </div>
  );
}
