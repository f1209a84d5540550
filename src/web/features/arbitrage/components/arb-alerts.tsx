import { useArbAlerts } from '../hooks/use-arb-alerts.ts';

// Rendered (and loaded) only while the Alerts switch is on: the new-arb alerts and the background title.
export default function ArbAlerts(props: Parameters<typeof useArbAlerts>[0]) {
  useArbAlerts(props);
  return null;
}
