import { z } from 'zod';

// The one way in to zod (a lint rule forbids importing it elsewhere). The pages' CSP allows no eval,
// so zod's compiled parsers (made with `new Function`) can never run in the browser, and asking for
// them makes zod try `new Function` first: a CSP violation that Safari and Firefox report on every
// schema checked (decision 016). The plain parsers give the same answers. Set here, it holds before
// any schema is built or checked, whichever module a page loads first.
z.config({ jitless: true });

export { z };
