import { formatDate } from '../../../domain/format';
import {
  paragraphKeys,
  TERMS_DEFINITIONS,
  TERMS_SECTIONS,
  TERMS_UPDATED,
  type TermsSectionId,
} from '../../components/terms/sections';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { useSite } from '../../shell';
import type { MarketingHandle } from './layout';
import type { Route } from './+types/terms';

/** Links only: the page is sent without the framework's scripts. */
export const handle: MarketingHandle = { scripts: false };

/** Message groups this page reads, sent with it on top of the shell's. */
export const messageGroups = ['terms'] as const;

export function loader({ params }: Route.LoaderArgs) {
  return { messages: pageMessages(params.lang, messageGroups) };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'terms.title', description: 'terms.description' });
}

function Definitions() {
  const { t } = useLocale();
  return (
    <dl className="mt-4 space-y-3">
      {TERMS_DEFINITIONS.map((key) => (
        <div key={key}>
          <dt className="font-semibold">{t(`terms.definitions.${key}.term`)}</dt>
          <dd className="mt-0.5">{t(`terms.definitions.${key}.text`)}</dd>
        </div>
      ))}
    </dl>
  );
}

function ContactDetails() {
  const { t } = useLocale();
  const { site } = useSite();
  return (
    <ul className="mt-4 space-y-1">
      <li>
        {t('terms.contact.email')}:{' '}
        <a href={`mailto:${site.supportEmail}`} className="font-medium text-link underline">
          {site.supportEmail}
        </a>
      </li>
      <li>
        {t('terms.contact.phone')}:{' '}
        <a href={`tel:${site.supportPhone.replace(/[^\d+]/g, '')}`} className="font-medium text-link underline">
          {site.supportPhone}
        </a>
      </li>
    </ul>
  );
}

/** What a section shows after its first paragraph, besides more paragraphs. */
const EXTRAS: Partial<Record<TermsSectionId, () => React.ReactNode>> = {
  definitions: Definitions,
  contact: ContactDetails,
};

export default function Terms() {
  const { t, locale } = useLocale();
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <header className="max-w-3xl">
        <h1 className="text-4xl font-bold tracking-tight">{t('terms.heading')}</h1>
        <p className="mt-3 text-sm text-muted" data-testid="terms-updated">
          {t('terms.updated', { date: formatDate(TERMS_UPDATED, locale) })}
        </p>
        <p className="mt-6 text-lg leading-8">{t('terms.intro')}</p>
      </header>
      <div className="mt-10 lg:grid lg:grid-cols-[16rem_1fr] lg:gap-12">
        <nav aria-labelledby="terms-toc" className="mb-10 lg:mb-0">
          <div className="rounded-xl border border-line bg-sunken p-5 lg:sticky lg:top-28">
            <h2 id="terms-toc" className="font-semibold">
              {t('terms.toc')}
            </h2>
            <ol className="mt-3 list-decimal space-y-1.5 pl-5 text-sm marker:text-muted" data-testid="terms-toc">
              {TERMS_SECTIONS.map((section) => (
                <li key={section.id}>
                  <a href={`#${section.id}`} className="text-link underline-offset-2 hover:underline">
                    {t(`terms.sections.${section.id}.heading`)}
                  </a>
                </li>
              ))}
            </ol>
          </div>
        </nav>
        <article className="max-w-prose leading-7">
          {TERMS_SECTIONS.map((section, index) => {
            const [first, ...rest] = paragraphKeys(section);
            const Extra = EXTRAS[section.id];
            return (
              <section
                key={section.id}
                id={section.id}
                aria-labelledby={`${section.id}-heading`}
                className="scroll-mt-28 not-first:mt-10"
              >
                <h2 id={`${section.id}-heading`} className="text-xl font-semibold">
                  <span className="mr-2 text-muted tabular-nums">{index + 1}.</span>
                  {t(`terms.sections.${section.id}.heading`)}
                </h2>
                {first ? <p className="mt-3">{t(first)}</p> : null}
                {Extra ? <Extra /> : null}
                {rest.map((key) => (
                  <p key={key} className="mt-3">
                    {t(key)}
                  </p>
                ))}
              </section>
            );
          })}
        </article>
      </div>
    </div>
  );
}
