import { useEffect, useRef, useState } from 'react';
import { data, Link, useFetcher } from 'react-router';
import { cardChangeSchema } from '../../../domain/forms/card-change';
import { formatMoney } from '../../../domain/format';
import { requireUser } from '../../auth.server';
import { useSnackbar } from '../../components/feedback/snackbars';
import { inputClass } from '../../components/forms/fields';
import { readForm } from '../../components/forms/read-form';
import { refusalOf } from '../../components/forms/refusal';
import { useSay } from '../../components/forms/say';
import { CardEntry, type CardEntryHandle } from '../../components/purchase/card-entry';
import { primaryButton } from '../../components/ui/buttons';
import { serverContext } from '../../context';
import { memberCallParams } from '../../api/call-params.server';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { usePurchaseDocument } from '../../purchase-document';
import { useSsoLink } from '../../components/portal/sso';
import type { Route } from './+types/card';
import { loadDashboard } from './dashboard.server';

/*
 * `/{locale}/portal/card`: the member replaces the card renewals are charged to (decision 031).
 * The card is typed into the payment provider's own fields, as at checkout, which answer a token;
 * the server attaches it at the provider, keeps it on file, and tries an overdue renewal on it at
 * once. It is a purchase page: its policy lets the provider's frame in.
 */

export const messageGroups = ['cardChange', 'forms', 'purchase', 'subscription'] as const;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ctx = context.get(serverContext);
  const user = requireUser(ctx, request, params.lang);
  const { subscription } = await loadDashboard(ctx, user);
  return {
    subscription: subscription
      ? {
          _id: subscription._id,
          card: subscription.card,
          lifecycle: subscription.lifecycle,
          currency: subscription.overview.currency,
        }
      : null,
    name: user.name || '',
    payments: ctx.payments,
    messages: pageMessages(params.lang, messageGroups),
  };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'cardChange.title', index: false });
}

type CardAnswer = { ok: true; renewal: string; status: string } | { ok: false; message: string; field?: string };

export async function action({ context, request, params }: Route.ActionArgs) {
  const ctx = context.get(serverContext);
  requireUser(ctx, request, params.lang);
  const form = await readForm(request, cardChangeSchema);
  if (!form.ok) return data<CardAnswer>({ ok: false, message: 'validation.invalid' }, { status: 400 });
  try {
    const answer = await ctx.api.service('cardChanges').create(form.values, memberCallParams(ctx, params.lang));
    return data<CardAnswer>({ ok: true, renewal: answer.renewal, status: answer.status });
  } catch (caught) {
    const { status, message, errors } = refusalOf(caught);
    return data<CardAnswer>({ ok: false, message: errors.paymentMethodId ?? message }, { status });
  }
}

export default function CardPage({ loaderData }: Route.ComponentProps) {
  usePurchaseDocument();
  const { t, locale } = useLocale();
  const link = useSsoLink();
  const { subscription, payments } = loaderData;
  const fetcher = useFetcher<typeof action>();
  const say = useSay();
  const { success, error } = useSnackbar();
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  const [name, setName] = useState(loaderData.name);
  const cardEntry = useRef<CardEntryHandle>(null);
  const stripe = payments.provider === 'stripe' && Boolean(payments.publishableKey);
  const overdue =
    subscription?.lifecycle.pastDue &&
    (subscription.lifecycle.status === 'past_due' || subscription.lifecycle.status === 'unpaid')
      ? subscription.lifecycle.pastDue
      : null;
  const amount =
    overdue && subscription ? formatMoney({ amount: overdue.amount, currency: subscription.currency }, locale) : '';

  // The server's answer: the card is saved (and what the overdue payment did), or why not.
  const answer = fetcher.data;
  useEffect(() => {
    if (!answer) return;
    setBusy(false);
    if (!answer.ok) {
      setProblem(say(answer.message));
      return;
    }
    setProblem('');
    if (answer.renewal === 'renewed') success(t('cardChange.paid', { amount }));
    else if (answer.renewal === 'failed') error(t('cardChange.notPaid'));
    else if (answer.renewal === 'pending') success(t('cardChange.pending'));
    else success(t('cardChange.saved'));
    // Once per answer.
  }, [answer]);

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields = cardEntry.current;
    if (busy || !ready || !subscription || !fields) return;
    setBusy(true);
    setProblem('');
    void fields.tokenize({ name, line1: '', line2: '', city: '', postalCode: '', country: '' }).then((result) => {
      if (result.ok)
        void fetcher.submit(
          { subscription: subscription._id, paymentMethodId: result.paymentMethodId },
          { method: 'post' },
        );
      else {
        setBusy(false);
        setProblem(result.message);
      }
    });
  };

  const card = subscription?.card;
  return (
    <div className="mx-auto max-w-2xl px-4 py-8 sm:px-6 lg:py-10" data-testid="card-page">
      <p>
        <Link
          to={link(`/${locale}/portal/plan`)}
          className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
        >
          ← {t('cardChange.back')}
        </Link>
      </p>
      <h1 className="mt-3 text-3xl font-bold">{t('cardChange.heading')}</h1>
      {!subscription || subscription.lifecycle.status === 'cancelled' ? (
        <p className="mt-6 text-lg text-muted" data-testid="card-no-plan">
          {t('cardChange.noPlan')}
        </p>
      ) : (
        <form onSubmit={submit} noValidate className="mt-6 space-y-6" data-testid="card-form">
          <section
            className="rounded-2xl border border-line bg-raised p-4 sm:p-5"
            aria-labelledby="current-card-heading"
          >
            <h2 id="current-card-heading" className="text-sm font-semibold tracking-wide text-muted uppercase">
              {t('cardChange.current')}
            </h2>
            <p className="mt-1 text-lg font-semibold" data-testid="card-current">
              {card
                ? t('cardChange.cardText', {
                    brand: card.brand.toUpperCase(),
                    last4: card.last4,
                    month: String(card.expMonth).padStart(2, '0'),
                    year: card.expYear,
                  })
                : t('cardChange.none')}
            </p>
          </section>

          {overdue ? (
            <p
              role="status"
              className="rounded-2xl border border-red-300 bg-red-50 p-4 font-medium text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50"
              data-testid="card-overdue"
            >
              {t('cardChange.overdue', { amount })}
            </p>
          ) : null}

          <section
            className="space-y-4 rounded-2xl border border-line bg-raised p-4 sm:p-6"
            aria-labelledby="new-card-heading"
          >
            <h2 id="new-card-heading" className="text-xl font-semibold">
              {t('cardChange.frame')}
            </h2>
            <p className="text-sm text-muted">{t('cardChange.hint')}</p>
            {stripe ? (
              <div>
                <label htmlFor="card-name" className="block font-medium">
                  {t('cardChange.nameOnCard')}
                </label>
                <input
                  id="card-name"
                  name="name"
                  value={name}
                  onChange={(event) => setName(event.target.value)}
                  autoComplete="cc-name"
                  className={inputClass}
                />
              </div>
            ) : null}
            <CardEntry
              ref={cardEntry}
              payments={payments}
              title={t('cardChange.frame')}
              unavailable={t('cardChange.unavailable')}
              onReady={setReady}
            />
          </section>

          <div aria-live="polite">
            {problem ? (
              <p
                role="alert"
                className="rounded-2xl border border-red-600 p-4 font-medium text-red-700 dark:text-red-300"
                data-testid="card-problem"
              >
                {problem}
              </p>
            ) : null}
          </div>

          <button type="submit" disabled={busy || !ready} className={primaryButton} data-testid="card-save">
            {busy ? t('cardChange.saving') : overdue ? t('cardChange.saveAndPay', { amount }) : t('cardChange.save')}
          </button>
          <p className="text-xs text-muted">{t('cardChange.secure')}</p>
        </form>
      )}
    </div>
  );
}
