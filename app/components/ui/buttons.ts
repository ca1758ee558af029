/** The site's app buttons (purchase flow, portal): the main action, and the quieter ones. */
export const primaryButton =
  'inline-flex min-h-11 items-center justify-center rounded-full bg-brand-700 px-6 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:opacity-60 dark:bg-brand-400 dark:text-brand-950 dark:hover:bg-brand-300';
export const secondaryButton =
  'inline-flex min-h-11 items-center justify-center rounded-full border border-line bg-raised px-5 py-2.5 font-semibold hover:bg-sunken';
export const smallButton =
  'inline-flex min-h-9 items-center justify-center rounded-full border border-line bg-raised px-3.5 py-1.5 text-sm font-semibold hover:bg-sunken';
