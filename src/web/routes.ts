import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('betting-tools/arbitrage', 'routes/arbitrage.tsx'),
  route('betting-tools/positive-ev', 'routes/positive-ev.tsx'),
  route('betting-tools/middles', 'routes/middles.tsx'),
  route('betting-tools/bet-tracker', 'routes/bet-tracker.tsx'),
  route('betting-tools/calibration', 'routes/calibration.tsx'),
  route('sports-betting-api', 'routes/pricing.tsx'),
  route('welcome', 'routes/welcome.tsx'),
  route('account', 'routes/account.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
