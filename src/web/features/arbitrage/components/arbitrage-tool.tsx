import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { ArbitrageScreen } from './arbitrage-screen.tsx';

/** The arbitrage page's feature root: its own query client, so other pages do not ship TanStack Query. */
export function ArbitrageTool() {
  const [client] = useState(() => new QueryClient());
  return (
    <QueryClientProvider client={client}>
      <ArbitrageScreen />
    </QueryClientProvider>
  );
}
