// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_FETCH_META } from '#domain/site.ts';
import { FIRST_FETCH_MAX_AGE_MS, firstFetchMeta, takeFirstFetch } from './first-fetch.ts';

const holder = window as { sharplineFirstFetch?: unknown };

function loaderAsked(url: string, askedAt = Date.now()) {
  const response = Promise.resolve(new Response('{}'));
  holder.sharplineFirstFetch = { url, askedAt, response };
  return response;
}

afterEach(() => {
  delete holder.sharplineFirstFetch;
  vi.useRealTimers();
});

describe('the first request a page names, sent by its script loader', () => {
  it('is named in a meta element the loader reads', () => {
    expect(firstFetchMeta('/tools/ev.json')).toEqual({ name: FIRST_FETCH_META, content: '/tools/ev.json' });
  });

  it('is taken once, by the fetcher of the address the loader asked', () => {
    const response = loaderAsked('/tools/ev.json');
    expect(takeFirstFetch('/tools/middles.json')).toBeUndefined();
    expect(takeFirstFetch('/tools/ev.json')).toBe(response);
    expect(takeFirstFetch('/tools/ev.json')).toBeUndefined();
  });

  it('is not used when the page reads it too late (a tab left in the background): the page asks anew', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    loaderAsked('/tools/arbs.json', 1_000_000 - FIRST_FETCH_MAX_AGE_MS - 1);
    expect(takeFirstFetch('/tools/arbs.json')).toBeUndefined();
    expect(holder.sharplineFirstFetch).toBeUndefined();
    loaderAsked('/tools/arbs.json', 1_000_000 - FIRST_FETCH_MAX_AGE_MS);
    expect(takeFirstFetch('/tools/arbs.json')).toBeDefined();
  });

  it('is absent on a page whose loader asked nothing (a visit by a link inside the site)', () => {
    expect(takeFirstFetch('/tools/arbs.json')).toBeUndefined();
  });
});
