import { BILLING_PATHS } from '#domain/checkout.ts';
import { formatPrice, type FeatureIcon, type Tier } from '#domain/plans.ts';
import { ROUTES } from '#domain/site.ts';
import { cn } from '#web/lib/cn.ts';

const ICON_PATHS: Record<FeatureIcon, string> = {
  bolt: 'M13 2 4 14h7l-1 8 9-12h-7l1-8Z',
  clock: 'M12 7v5l3 2M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z',
  gauge: 'M12 14l4-4M3.5 17a9 9 0 1 1 17 0',
  layers: 'm12 3 9 5-9 5-9-5 9-5Zm-9 9 9 5 9-5',
  history: 'M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5M12 7v5l3 2',
  chart: 'M3 3v18h18M7 15l4-4 3 3 5-6',
};

function FeatureIconSvg({ icon, included }: { icon?: FeatureIcon; included: boolean }) {
  const path = !included ? 'M6 6l12 12M18 6 6 18' : icon ? ICON_PATHS[icon] : 'm5 12 5 5 9-11';
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={cn('mt-0.5 h-5 w-5 shrink-0', included ? 'text-emerald-300' : 'text-slate-500')}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={path} />
    </svg>
  );
}

const actionClass =
  'mt-8 inline-flex min-h-12 w-full items-center justify-center rounded-md px-4 text-center font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-300';

/**
 * One plan. Its button is a form posting to the server, which decides where the visitor goes (the plan's Payment Link,
 * a Stripe Checkout Session, or back here saying purchases are not open): it works before hydration and without
 * JavaScript. Once the server has said the plan cannot be bought here (`purchase: 'closed'`), the button offers the
 * free trial instead (decision 151). The free tier's card (issue 56) has the same rows and links to the free tools.
 */
export function PlanCard({
  plan,
  purchase,
  email,
}: {
  plan: Tier;
  /** From GET /api/site-config; undefined until it arrives. */
  purchase?: 'open' | 'closed' | undefined;
  /** The address to start checkout with (from a trial email's link). */
  email?: string | undefined;
}) {
  const headingId = `plan-${plan.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className={cn(
        'flex flex-col rounded-2xl border bg-slate-900 p-6',
        plan.id !== 'free' && plan.highlighted
          ? 'border-emerald-400 shadow-lg shadow-emerald-950'
          : 'border-slate-700',
      )}
    >
      {/* Five cards side by side from 1280 px: "Enterprise" and its badge take two lines there, so every card keeps
          room for two and the prices stay level. */}
      <div className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1 xl:min-h-[3.75rem] xl:content-start">
        <h2 id={headingId} className="scroll-mt-24 text-xl font-bold text-white">
          {plan.name}
        </h2>
        {plan.id !== 'free' && plan.realTime ? (
          <span className="whitespace-nowrap rounded-full bg-emerald-400 px-2.5 py-0.5 text-xs font-bold text-slate-950">
            Real-time
          </span>
        ) : plan.id !== 'free' && plan.highlighted ? (
          <span className="whitespace-nowrap rounded-full border border-emerald-400 px-2.5 py-0.5 text-xs font-semibold text-emerald-200">
            Popular
          </span>
        ) : null}
      </div>
      <p className="mt-4 flex items-baseline gap-1 text-white">
        <span className="text-4xl font-extrabold tracking-tight">{formatPrice(plan)}</span>
        <span className="text-slate-300">/{plan.period}</span>
      </p>
      <ul className="mt-6 flex-1 space-y-3 text-sm">
        {plan.features.map((feature) => (
          <li
            key={feature.text}
            className={cn('flex gap-2', feature.included ? 'text-slate-100' : 'text-slate-400')}
          >
            <FeatureIconSvg icon={feature.icon} included={feature.included} />
            <span>
              {feature.included ? null : <span className="sr-only">Not included: </span>}
              {feature.docsHref ? (
                <a
                  href={feature.docsHref}
                  className="underline decoration-slate-500 underline-offset-4 hover:text-emerald-200 hover:decoration-emerald-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-300"
                >
                  {feature.text}
                </a>
              ) : (
                feature.text
              )}
            </span>
          </li>
        ))}
      </ul>
      {plan.id === 'free' ? (
        <a
          href={ROUTES.arbitrage}
          className={cn(actionClass, 'border border-slate-500 py-1.5 text-white hover:bg-slate-800')}
        >
          Use the free tools
        </a>
      ) : purchase === 'closed' ? (
        <a
          href={ROUTES.trialForm}
          aria-label="Purchases not open: start a free trial"
          className={cn(
            actionClass,
            'flex-col border border-slate-600 py-1 text-slate-100 hover:bg-slate-800',
          )}
        >
          {/* The space (not drawn between flex items) keeps the two lines apart in the visible text, so the
              link's name contains it word for word (Lighthouse's label-content-name-mismatch). */}
          <span className="text-xs font-medium leading-4 text-slate-400">Purchases not open</span>{' '}
          <span className="text-sm leading-5">Start a free trial</span>
        </a>
      ) : (
        <form method="post" action={BILLING_PATHS.checkout}>
          <input type="hidden" name="plan" value={plan.id} />
          {email ? <input type="hidden" name="email" value={email} /> : null}
          <button
            type="submit"
            className={cn(
              actionClass,
              'py-1.5',
              plan.highlighted
                ? 'bg-emerald-400 text-slate-950 hover:bg-emerald-300'
                : 'border border-slate-500 text-white hover:bg-slate-800',
            )}
          >
            Choose {plan.name}
          </button>
        </form>
      )}
    </article>
  );
}
