/**
 * The message groups every page of a language receives with the shell (header, footer, feedback,
 * errors, sign-in). Page content groups (home, terms, the feature list, the blog...) travel only
 * with the pages that name them in their route module's `messageGroups`.
 */
export const SHELL_GROUPS = [
  'validation',
  'auth',
  'errors',
  'errorPage',
  'nav',
  'footer',
  'theme',
  'feedback',
  'login',
  'loginLayout',
  'portal',
  'microsite',
  // The currencies' names, wherever a currency is chosen.
  'currencies',
] as const;
