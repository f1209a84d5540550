import { ROUTES } from './site.ts';

// What the server's answers to the site's plain form posts and the pages agree on (decisions 151 and 208). A form post
// is answered with a 303 to the form's page, a query flag and a fragment; the page holds every notice of the form,
// hidden unless the fragment names it (CSS `:target`: shown before the script has run and without JavaScript), and,
// once hydrated, shows the one its flag names. Nothing a visitor typed is ever in those URLs.

export interface SiteNotice {
  /** `name=value` in the query string, read once the page has hydrated. */
  flag: string;
  /** The notice element's id, the URL's fragment. */
  id: string;
}

/** `page?flag#id`: the page showing one notice. */
export function noticePath(page: string, notice: SiteNotice): string {
  return `${page}?${notice.flag}#${notice.id}`;
}

/** The notice of `notices` that a page URL asks for (its query flag, else its fragment), if any. */
export function noticeOf<N extends string>(
  notices: Record<N, SiteNotice>,
  search: string,
  hash: string,
): N | null {
  const flags = new URLSearchParams(search);
  const id = hash.replace(/^#/, '');
  for (const [name, notice] of Object.entries(notices) as [N, SiteNotice][]) {
    const [key, value] = notice.flag.split('=') as [string, string];
    if (flags.get(key) === value || notice.id === id) return name;
  }
  return null;
}

/** The home page's trial form, posted without its script. */
export const TRIAL_NOTICES = {
  sent: { flag: 'trial=sent', id: 'trial-sent' },
  invalid: { flag: 'trial=invalid', id: 'trial-invalid' },
  busy: { flag: 'trial=busy', id: 'trial-busy' },
  failed: { flag: 'trial=failed', id: 'trial-failed' },
} as const satisfies Record<string, SiteNotice>;
export type TrialNotice = keyof typeof TRIAL_NOTICES;

export const trialNoticePath = (notice: TrialNotice) => noticePath(ROUTES.home, TRIAL_NOTICES[notice]);

/** The pricing page's "Lost your key?" form, posted without its script. */
export const LOST_KEY_NOTICES = {
  sent: { flag: 'lost-key=sent', id: 'lost-key-sent' },
  invalid: { flag: 'lost-key=invalid', id: 'lost-key-invalid' },
  busy: { flag: 'lost-key=busy', id: 'lost-key-busy' },
  failed: { flag: 'lost-key=failed', id: 'lost-key-failed' },
} as const satisfies Record<string, SiteNotice>;
export type LostKeyNotice = keyof typeof LOST_KEY_NOTICES;

export const lostKeyNoticePath = (notice: LostKeyNotice) =>
  noticePath(ROUTES.pricing, LOST_KEY_NOTICES[notice]);

/**
 * The account page's key form without its script: its button stays disabled until the script runs, so no browser
 * sends it; should one post it all the same, the server reads nothing of it and sends the visitor back to this notice.
 */
export const ACCOUNT_NOTICES = {
  needsScript: { flag: 'key=needs-script', id: 'key-needs-script' },
} as const satisfies Record<string, SiteNotice>;

export const accountNoticePath = () => noticePath(ROUTES.account, ACCOUNT_NOTICES.needsScript);
