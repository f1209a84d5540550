import { ArbitrageScreen } from './arbitrage-screen.tsx';

/** The arbitrage page's feature root, composed by routes/arbitrage.tsx. */
export function ArbitrageTool() {
  return <ArbitrageScreen />;
}
