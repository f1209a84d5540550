// The browser's public configuration: fixed at build time from VITE_* variables, nothing secret.
export const publicConfig = {
  /** Where the trial form posts (docs/product.md §7 call 1). Same origin by default. */
  trialEndpoint: import.meta.env.VITE_TRIAL_ENDPOINT || '/api/trial-requests',
  /** Where the pricing page's "Lost your key?" form posts (issue 18). Same origin by default. */
  lostKeyEndpoint: import.meta.env.VITE_LOST_KEY_ENDPOINT || '/api/lost-key',
  /** Origin of the odds API host serving /tools/arbs.json (docs/product.md §7 call 2). Same origin by default. */
  oddsApiHost: import.meta.env.VITE_ODDS_API_HOST || '',
} as const;
