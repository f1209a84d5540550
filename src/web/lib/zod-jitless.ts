import { config } from 'zod';

// The site's Content Security Policy has no 'unsafe-eval' (decision 060). zod 4 compiles object checks with
// `new Function`, and probes whether it may when an object schema is built, unless `jitless` is already set: a page
// that builds schemas with the full `zod` API imports this module before the modules that build them, so that the
// setting comes first (modules run in import order) and the browser reports no CSP violation.
config({ jitless: true });
