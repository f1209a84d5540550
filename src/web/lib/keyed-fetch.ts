// A finder page's read with a pasted key (decisions 213, 224): this site's relative /v1 path, the key only in
// X-Api-Key (never in a URL), and a refusal in words. The arbitrage, positive-EV and middles pages share it.

/** /v1 refused the pasted key or could not be read with it: the page says why (and forgets a key it refused, 401). */
export class KeyedFeedError extends Error {
  override name = 'KeyedFeedError';
  constructor(
    message: string,
    /** The HTTP status; 0 when no answer came. */
    readonly status: number,
  ) {
    super(message);
  }
}

/** The answer's body and response; a failed request or a non-OK answer throws a KeyedFeedError saying why. */
export async function fetchWithKey(
  path: string,
  key: string,
  signal?: AbortSignal,
  /** A JSON body to POST (POST /v1/grade); without it, a GET. */
  json?: unknown,
): Promise<{ body: string; response: Response }> {
  let response: Response;
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Api-Key': key };
  try {
    response = await fetch(
      path,
      json === undefined
        ? { headers, signal }
        : {
            method: 'POST',
            headers: { ...headers, 'Content-Type': 'application/json' },
            body: JSON.stringify(json),
            signal,
          },
    );
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new KeyedFeedError('Could not reach the server with your key.', 0);
  }
  const body = await response.text();
  if (!response.ok) {
    let detail = `The server answered ${response.status}.`;
    try {
      const problem = JSON.parse(body) as { title?: unknown; detail?: unknown };
      if (typeof problem.detail === 'string') detail = problem.detail;
      else if (typeof problem.title === 'string') detail = problem.title;
    } catch {
      // Not a problem document: the status says it.
    }
    throw new KeyedFeedError(detail, response.status);
  }
  return { body, response };
}
