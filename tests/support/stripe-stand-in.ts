// Stripe's API stood in for (tests/support/server/stripe.ts) in its own process, for the browser tests' checkout
// server (a Playwright `webServer`, playwright.config.ts): `node --import tsx tests/support/stripe-stand-in.ts` listens
// on loopback at STRIPE_STAND_IN_PORT and answers the test's control requests (`StripeStandInClient`) besides Stripe's.
import { StripeApiStandIn } from './server/stripe.ts';

const port = Number(process.env.STRIPE_STAND_IN_PORT);
if (!Number.isInteger(port) || port <= 0) throw new Error('STRIPE_STAND_IN_PORT: a port is required');
const standIn = new StripeApiStandIn(true);
await standIn.start(port);
console.log(`Stripe stand-in on ${standIn.url}`);
const stop = () => void standIn.stop().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
