// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CalibrationReport } from '#domain/schemas/calibration.ts';
import { hoursAndMinutes, simulatedGameSpan } from '#domain/simulated-games.ts';
import { ROUTES } from '#domain/site.ts';
import { CalibrationReportPage } from './calibration-report.tsx';

// Decision 298: on a fresh data folder the report has no graded game; the page says what will come, when and why not
// yet, never "0 finished games" over an empty table. The server's answer (/tools/calibration.json, validated by the
// page's own schema) is stood in for at fetch: what the real server answers then is this report, with no group.

const EMPTY: CalibrationReport = {
  source: 'simulator',
  demo: true,
  as_of: 1_796_576_000,
  window_days: 30,
  events: 0,
  fair: { reference: 'sharp', method: 'shin' },
  groups: [],
};

function serve(report: CalibrationReport) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () => new Response(JSON.stringify(report), { headers: { 'content-type': 'application/json' } }),
    ),
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the calibration page before any game is graded', () => {
  it('explains, for the demo, when the first results come and why not yet; no bare 0', async () => {
    serve(EMPTY);
    render(<CalibrationReportPage />);
    const { shortest, longest } = simulatedGameSpan();
    const status = (await screen.findByRole('heading', { name: 'No graded games yet' })).parentElement!;
    expect(status).toHaveAttribute('role', 'status');
    expect(status).toHaveTextContent('No graded games yet');
    expect(status).toHaveTextContent('has both its closing prices and its final score yet');
    expect(status).toHaveTextContent(
      // The simulator's own game lengths (its models), not figures written in the page: 1 h 55 min (soccer) to
      // 3 h 15 min (NFL) today, whatever they become.
      `The first results come when the first games it priced before their start have ended, ${hoursAndMinutes(shortest)} to ${hoursAndMinutes(longest)} after that start`,
    );
    expect(status).toHaveTextContent('worked out again every 5 minutes');
    expect(screen.getByRole('link', { name: /Live tab/ })).toHaveAttribute('href', ROUTES.arbitrage);
    expect(screen.getByText(/No finished games yet, last 30 days/)).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/\b0 finished games/);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says where results come from on a real source', async () => {
    serve({ ...EMPTY, source: 'the-odds-api', demo: false });
    render(<CalibrationReportPage />);
    const status = (await screen.findByRole('heading', { name: 'No graded games yet' })).parentElement!;
    expect(status).toHaveAttribute('role', 'status');
    expect(status).toHaveTextContent('the odds source has reported their final scores');
    expect(status).not.toHaveTextContent('simulator');
  });
});
