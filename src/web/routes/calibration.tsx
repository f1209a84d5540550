import { SITE, ROUTES } from '#domain/site.ts';
import { PageShell } from '#web/components/page-shell.tsx';
import { CalibrationReportPage } from '#web/features/calibration/components/calibration-report.tsx';
import { seoMeta, webApplicationLd } from '#web/lib/seo.ts';

export const meta = () =>
  seoMeta({
    path: ROUTES.calibration,
    title: `Odds Calibration Report: Fair Odds Against Results | ${SITE.brand}`,
    description:
      'How well closing fair odds forecast results: a reliability table by league and market, and the Brier score and log loss of our fair odds against each sportsbook’s own closing prices, with sample sizes.',
    keywords: [
      'odds calibration',
      'fair odds accuracy',
      'brier score',
      'log loss',
      'closing line',
      'sports betting model',
    ],
    jsonLd: [webApplicationLd(`${SITE.brand} Calibration Report`, ROUTES.calibration)],
  });

/** The calibration report page: public, from GET /tools/calibration.json. */
export default function CalibrationRoute() {
  return (
    <PageShell>
      <CalibrationReportPage />
    </PageShell>
  );
}
