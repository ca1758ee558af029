import { Link } from 'react-router';
import { planAction, type PlanActionKind, type PlanActionPlan } from '../../../domain/plan-action';
import { useLocale } from '../../i18n/messages';
import { siteLinks, useShell, useSite } from '../../shell';

const LABELS: Record<PlanActionKind, string> = {
  subscribe: 'pricing.subscribe',
  enquire: 'pricing.enquire',
  chat: 'pricing.chat',
};

/**
 * The main button of a priced plan (calculator and plan page): subscribe, else enquire, else chat,
 * by the site's feature flags (`domain/plan-action.ts`).
 */
export function PlanActionButton({
  plan,
  query,
  testId,
  className = '',
}: {
  plan: PlanActionPlan | null;
  query: string;
  testId: string;
  className?: string;
}) {
  const { t, locale } = useLocale();
  const { market } = useShell();
  const { site } = useSite();
  const links = siteLinks(locale, site.brandSlug);
  const action = planAction(
    market,
    plan,
    { subscription: links.subscription, enquiry: links.enquiry, chat: site.chatUrl },
    query,
  );
  const style = `flex justify-center rounded-full bg-accent-400 px-5 py-3 font-semibold text-brand-950 hover:bg-accent-500 ${className}`;
  return action.external ? (
    <a
      href={action.href}
      target="_blank"
      rel="noopener"
      className={style}
      data-testid={testId}
      data-action={action.kind}
    >
      {t(LABELS[action.kind])}
    </a>
  ) : (
    <Link to={action.href} className={style} data-testid={testId} data-action={action.kind}>
      {t(LABELS[action.kind])}
    </Link>
  );
}
