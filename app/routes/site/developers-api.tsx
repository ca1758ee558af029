import { data, Form } from 'react-router';
import { isLocale } from '../../../domain/locales';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import rendererUrl from '@redocly/cli/lib/chunks/redoc.standalone.js?url';
import startUrl from '../../reference/start-renderer.js?url&no-inline';
import { referenceView, type ReferenceField, type ReferenceOperation } from './developers-api.server';
import type { MarketingHandle } from './layout';
import type { Route } from './+types/developers-api';

/*
 * The API's reference for developers (decision 058): the OpenAPI document of the reader's role.
 * The server writes it as readable HTML in the site's own style, searched with a plain form
 * (`?q=`); where scripts run, a well-kept renderer (Redoc, from our own origin, started by
 * `app/reference/start-renderer.js`) draws the same document in its place, searched as you type.
 * The framework's scripts are not sent: the page is a document, and its JSON is one link away.
 */

/** A document to read and search: sent without the framework's scripts. */
export const handle: MarketingHandle = { scripts: false, ownMain: true };

/** Where the renderer reads the reader's document: the API's own, with the page's session cookie. */
const DOCUMENT_URL = '/api/openapi.json';

/**
 * The renderer's bundle and the reader's document are fetched as the head is read, beside the
 * page's large body, rather than once the starter has run (decision 058: half a second sooner on
 * the test machine). The document's preload is in `cors` mode with the site's own credentials, as
 * the starter's `fetch` asks for it, so the one answer serves both.
 */
export const links: Route.LinksFunction = () => [
  { rel: 'modulepreload', href: rendererUrl },
  { rel: 'preload', href: DOCUMENT_URL, as: 'fetch', crossOrigin: 'anonymous' },
];

/** Message groups this page reads, sent with it on top of the shell's. */
export const messageGroups = ['developers'] as const;

export function loader({ context, params, request }: Route.LoaderArgs) {
  if (!isLocale(params.lang)) throw data(null, { status: 404 });
  const { user } = context.get(serverContext);
  const role = user?.role;
  const caller = role === 'member' || role === 'editor' || role === 'admin' ? role : 'anonymous';
  const search = (new URL(request.url).searchParams.get('q') ?? '').slice(0, 100);
  // The renderer reads the same document from `/api/openapi.json`, which takes the page's session
  // cookie: the page carries the document once, as this rendering of it.
  const reference = referenceView(caller, search);
  return { messages: pageMessages(params.lang, messageGroups), reference, search };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'developers.title', description: 'developers.description' });
}

/** Text whose `code` spans (Markdown backticks) are shown as code. */
function Prose({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, index) =>
        index % 2 === 1 ? (
          <code key={index} className="rounded bg-sunken px-1 py-0.5 text-[0.9em]">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

function Fields({ caption, fields }: { caption: string; fields: ReferenceField[] }) {
  const { t } = useLocale();
  if (fields.length === 0) return null;
  return (
    <div className="mt-4 overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="text-left font-semibold">{caption}</caption>
        <thead>
          <tr className="border-b border-line">
            <th scope="col" className="py-1.5 pr-4 font-medium">
              {t('developers.field')}
            </th>
            <th scope="col" className="py-1.5 pr-4 font-medium">
              {t('developers.type')}
            </th>
            <th scope="col" className="py-1.5 font-medium">
              {t('developers.notes')}
            </th>
          </tr>
        </thead>
        <tbody lang="en">
          {fields.map((field) => (
            <tr key={field.name} className="border-b border-line/60 align-top">
              <td className="py-1.5 pr-4">
                <code>{field.name}</code>
              </td>
              <td className="py-1.5 pr-4 break-all">
                <code>{field.type}</code>
              </td>
              <td className="py-1.5">
                {[field.required ? t('developers.required') : '', field.readOnly ? t('developers.readOnly') : '']
                  .filter(Boolean)
                  .join(' · ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Operation({ op }: { op: ReferenceOperation }) {
  const { t } = useLocale();
  const who = op.anyone
    ? t('developers.anyone')
    : op.tokens
        .map((token) => t(token === 'appUserToken' ? 'developers.appUserToken' : 'developers.memberToken'))
        .join(', ');
  return (
    <section aria-labelledby={op.id} className="rounded-xl border border-line bg-raised p-5">
      <h4 id={op.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 font-semibold">
        <span className="rounded bg-brand-700 px-2 py-0.5 font-mono text-xs text-white">{op.method}</span>
        <code className="break-all">{op.path}</code>
      </h4>
      <p className="mt-2" lang="en">
        <Prose text={op.summary} />
      </p>
      {op.description ? (
        <p className="mt-1 text-sm text-muted" lang="en">
          <Prose text={op.description} />
        </p>
      ) : null}
      <p className="mt-2 text-sm">
        <span className="font-medium">{t('developers.who')}</span> {who}
      </p>
      {op.parameters.length > 0 ? (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-medium">
            {t('developers.parameters', { count: op.parameters.length })}
          </summary>
          <dl className="mt-2 space-y-1.5" lang="en">
            {op.parameters.map((parameter) => (
              <div key={`${parameter.where}:${parameter.name}`}>
                <dt className="inline font-mono">{parameter.name}</dt>{' '}
                <dd className="inline text-muted">
                  ({parameter.where}) <Prose text={parameter.description} />
                </dd>
              </div>
            ))}
          </dl>
        </details>
      ) : null}
      <Fields caption={t('developers.request')} fields={op.request} />
      <Fields caption={t('developers.answer')} fields={op.answer} />
      <p className="mt-3 text-sm text-muted">
        {t('developers.statuses')} {op.statuses.join(', ')}
      </p>
    </section>
  );
}

export default function DevelopersApi({ loaderData }: Route.ComponentProps) {
  const { t } = useLocale();
  const { reference, search } = loaderData;
  return (
    <>
      <section aria-labelledby="api-reference-heading" className="mx-auto max-w-6xl px-4 pt-12 sm:px-6">
        <header className="max-w-3xl">
          <h1 id="api-reference-heading" className="text-4xl font-bold tracking-tight">
            {t('developers.heading')}
          </h1>
          <p className="mt-4 text-lg leading-8">{t('developers.intro')}</p>
          <p className="mt-4">
            <a href="/api/openapi.json" className="text-action">
              {t('developers.openapi', { version: reference.version })}
            </a>
          </p>
        </header>
      </section>
      <div
        id="api-reference"
        data-renderer={rendererUrl}
        data-document={DOCUMENT_URL}
        data-navigation-label={t('developers.rendererNavigation')}
        data-testid="api-renderer"
        className="mt-8"
        hidden
      />
      <script type="module" src={startUrl} />
      <main className="mx-auto block max-w-6xl px-4 pb-12 sm:px-6" data-reference-fallback="">
        <section aria-labelledby="sign-in" className="mt-10 max-w-3xl">
          <h2 id="sign-in" className="text-2xl font-semibold">
            {t('developers.authentication')}
          </h2>
          <ul className="mt-3 space-y-2" lang="en">
            {reference.schemes.map((scheme) => (
              <li key={scheme.name}>
                <code className="font-semibold">{scheme.name}</code>: <Prose text={scheme.description} />
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="realtime" className="mt-10 max-w-3xl">
          <h2 id="realtime" className="text-2xl font-semibold">
            {t('developers.realtime')}
          </h2>
          <div className="mt-3 space-y-2" lang="en">
            {reference.realtime
              .split('\n')
              .filter(Boolean)
              .map((line) => (
                <p key={line}>
                  <Prose text={line} />
                </p>
              ))}
          </div>
        </section>

        <section aria-labelledby="services" className="mt-10">
          <h2 id="services" className="text-2xl font-semibold">
            {t('developers.services')}
          </h2>
          <Form method="get" role="search" className="mt-4 flex max-w-xl flex-wrap items-end gap-3">
            <label className="min-w-0 flex-1 text-sm font-medium">
              {t('developers.search')}
              <input type="search" name="q" defaultValue={search} className="field-input" />
            </label>
            <button
              type="submit"
              className="rounded-lg bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800"
            >
              {t('developers.searchButton')}
            </button>
          </Form>
          <p className="mt-3 text-sm text-muted" aria-live="polite" data-testid="reference-count">
            {t('developers.shown', { shown: reference.services.length, total: reference.total })}
          </p>
          <div className="mt-6 space-y-12">
            {reference.services.map((service) => (
              <section key={service.name} aria-labelledby={`service-${service.name}`} data-testid="reference-service">
                <h3 id={`service-${service.name}`} className="font-mono text-xl font-semibold">
                  {service.name}
                </h3>
                <p className="mt-2 max-w-3xl" lang="en">
                  <Prose text={service.description} />
                </p>
                {service.events.length > 0 ? (
                  <p className="mt-1 text-sm text-muted">
                    {t('developers.events')} <span lang="en">{service.events.join(', ')}</span>
                  </p>
                ) : null}
                <div className="mt-4 space-y-4">
                  {service.operations.map((op) => (
                    <Operation key={op.id} op={op} />
                  ))}
                </div>
              </section>
            ))}
          </div>
        </section>
      </main>
    </>
  );
}
