import type { CalibrationReport } from '#domain/schemas/calibration.ts';
import { publicConfig } from '#web/config.ts';
import { useCallback, useEffect, useState } from 'react';

// The calibration report (issue 57): GET /tools/calibration.json on the odds API host that serves the other public
// feeds, cached there for minutes. Fetched once when the page opens (never polled: it changes as games finish),
// validated with its zod/mini schema, which loads with it.

export const CALIBRATION_PATH = '/tools/calibration.json';

export class CalibrationRequestError extends Error {
  override name = 'CalibrationRequestError';
}

export function calibrationUrl(host: string = publicConfig.oddsApiHost): string {
  return `${host.replace(/\/+$/, '')}${CALIBRATION_PATH}`;
}

type ReportSchema = { parse(input: unknown): CalibrationReport };
let schema: Promise<ReportSchema> | undefined;
function loadSchema(): Promise<ReportSchema> {
  // jitless before the schema is built: the site's CSP has no 'unsafe-eval' (decision 060).
  schema ??= import('zod/mini')
    .then(({ config }) => {
      config({ jitless: true });
      return import('#domain/schemas/calibration.ts');
    })
    .then((module) => module.CalibrationReportSchema)
    .catch((error: unknown) => {
      schema = undefined;
      throw error;
    });
  return schema;
}

export async function fetchCalibration({
  signal,
}: { signal?: AbortSignal } = {}): Promise<CalibrationReport> {
  const parser = loadSchema();
  parser.catch(() => undefined); // awaited below
  const response = await fetch(calibrationUrl(), { headers: { Accept: 'application/json' }, signal });
  if (!response.ok) throw new CalibrationRequestError(`Server error: ${response.status}`);
  const body: unknown = await response.json();
  return (await parser).parse(body);
}

/** The report, fetched once when the page mounts (and again on `refetch`, after an error). */
export function useCalibration(): {
  data: CalibrationReport | undefined;
  isPending: boolean;
  refetch: () => void;
} {
  const [state, setState] = useState<{ data?: CalibrationReport; pending: boolean }>({ pending: true });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    fetchCalibration({ signal: controller.signal }).then(
      (data) => setState({ data, pending: false }),
      () => {
        if (!controller.signal.aborted) setState({ pending: false });
      },
    );
    return () => controller.abort();
  }, [attempt]);
  const refetch = useCallback(() => {
    setState((previous) => ({ ...previous, pending: true }));
    setAttempt((n) => n + 1);
  }, []);
  return { data: state.data, isPending: state.pending, refetch };
}
