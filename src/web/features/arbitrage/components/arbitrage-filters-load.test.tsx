// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { arb, feed, moneyline } from '#tests/support/arbitrage-fixtures.ts';
import { ArbitrageTool } from './arbitrage-tool.tsx';

// The filters' code (lib/arb-predicate.ts) is in the chunk loaded on use (lib/bettor-extras.ts, decision 126): a page
// opened with a filter shows no row until it is in, then only what the filter keeps. A file of its own, so that the
// chunk is not loaded yet when the page opens.

const lebron = {
  ...arb('lebron', moneyline('lebron').sides, { market: 'LeBron James Points Over/Under 27.5' }),
  market_type: 'prop',
};
const line = { ...moneyline('celtics'), market_type: 'moneyline' };

beforeEach(() => {
  window.localStorage.clear();
  window.history.replaceState(null, '', '/betting-tools/arbitrage?markets=props');
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(feed([line, lebron])), { status: 200 })),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it('a page opened with a filter waits for the filters code, then draws only what the filter keeps', async () => {
  render(<ArbitrageTool />);
  expect(screen.getByRole('status')).toHaveTextContent('Loading arbitrage opportunities...');
  const table = await screen.findByRole('table');
  await waitFor(() => expect(within(table).getAllByRole('row').length).toBeGreaterThan(1));
  expect(within(table).getByText(/LeBron James Points Over\/Under/)).toBeInTheDocument();
  expect(within(table).queryByText('Moneyline')).not.toBeInTheDocument();
});
