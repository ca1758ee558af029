/** What the pages may know of the configuration: handed to the browser, so never a secret. */
export interface SiteSettings {
  brandName: string;
  /** The brand in route paths, e.g. `/tillpointPay`. */
  brandSlug: string;
  /** Google Tag Manager container; no third-party script loads without one. */
  gtmId: string | undefined;
  /** Where the try-now and chat buttons lead when the contact form is off. */
  chatUrl: string;
  supportEmail: string;
  supportPhone: string;
  /** The site's public origin (`PUBLIC_URL`), for canonical links; the request's origin when unset. */
  publicUrl: string | undefined;
}

/** `Tillpoint` → `tillpoint`: letters and digits only, as route paths use it. */
export function brandSlug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '') || 'brand';
}
