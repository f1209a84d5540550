// Query parameters that may carry a secret (an API key for EventSource clients) never reach a log line.
const SECRET_PARAMS = /([?&](?:api_key|apikey|key|token|access_token)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[REDACTED]');
}
