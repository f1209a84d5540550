import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('betting-tools/arbitrage', 'routes/arbitrage.tsx'),
  route('sports-betting-api', 'routes/pricing.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
