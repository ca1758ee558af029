import { useNonce } from '../nonce';
import { useSite } from '../shell';
import { jsonLdText, organization, type JsonLdObject } from './structured-data';

/** Structured data for search engines, with this response's CSP nonce like every inline script. */
export function JsonLd({ data }: { data: JsonLdObject | readonly JsonLdObject[] }) {
  const nonce = useNonce();
  return (
    // The browser hides the nonce after parsing, so the hydrated attribute differs by design.
    <script
      type="application/ld+json"
      nonce={nonce || undefined}
      dangerouslySetInnerHTML={{ __html: jsonLdText(data) }}
      suppressHydrationWarning
    />
  );
}

/** The company's Organization object, from the site settings: one line on the home page. */
export function OrganizationJsonLd() {
  const { site, origin } = useSite();
  return <JsonLd data={organization(site, origin)} />;
}
