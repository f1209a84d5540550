// Shared by Playwright, the benchmarks and the scripts: Debian's Chromium (never a downloaded browser) with the flags
// this machine needs, and the loopback ports of the browser tests' servers (overridable so two runs can coexist).
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The site served with the seeded simulator. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
/** The site served with the arbitrage page's deterministic replayed feed. */
export const E2E_REPLAY_PORT = Number(process.env.E2E_REPLAY_PORT ?? 3101);
export const E2E_REPLAY_ORIGIN = `http://127.0.0.1:${E2E_REPLAY_PORT}`;
/** The site with Stripe's API stood in for (tests/e2e/checkout.spec.ts). */
export const E2E_CHECKOUT_PORT = Number(process.env.E2E_CHECKOUT_PORT ?? 3102);
export const E2E_CHECKOUT_ORIGIN = `http://127.0.0.1:${E2E_CHECKOUT_PORT}`;
/** That site's Stripe: the stand-in of tests/support/stripe-stand-in.ts, in its own process. */
export const E2E_STRIPE_PORT = Number(process.env.E2E_STRIPE_PORT ?? 3103);
export const E2E_STRIPE_ORIGIN = `http://127.0.0.1:${E2E_STRIPE_PORT}`;
/**
 * The bet tracker's own site (tests/e2e/bet-tracker.spec.ts starts it): the simulator pinned two minutes before the
 * NFL's early games end, so a bet tracked from one of their rows is graded within the test.
 */
export const E2E_TRACKER_PORT = Number(process.env.E2E_TRACKER_PORT ?? E2E_STRIPE_PORT + 1);
export const E2E_TRACKER_ORIGIN = `http://127.0.0.1:${E2E_TRACKER_PORT}`;
