// Secrets never reach a log line (decision 010). A URL's parameters are split on `?`, `&` and `;`, each name is
// percent-decoded (repeatedly, so `api%255Fkey` is caught too) and case-folded before it is compared, and the value of
// any credential-like name is replaced. Independently, anything shaped like a Sharpline key is replaced wherever it
// appears in a line, encoded or not.

export const REDACTED = '[REDACTED]';

/** Names (lower case, separators `-`, `_`, `.` and spaces removed) that carry a credential and nothing else. */
const CREDENTIAL_NAMES = new Set([
  'apikey',
  'xapikey',
  'key',
  'token',
  'accesstoken',
  'authtoken',
  'refreshtoken',
  'idtoken',
  'bearer',
  'auth',
  'authorization',
  'secret',
  'clientsecret',
  'password',
  'passwd',
  'pwd',
  'session',
  'sessionid',
  'signature',
  'sig',
  'credential',
  'credentials',
]);

/** Parts of a name that make its value worth hiding in a log even when the name is not an exact credential name. */
const CREDENTIAL_PARTS = ['key', 'token', 'secret', 'passw', 'auth', 'session', 'credential', 'signature'];

function decodeFully(text: string): string {
  let current = text;
  for (let round = 0; round < 4; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current.replace(/\+/g, ' '));
    } catch {
      // A stray `%`: decode the well-formed escapes only.
      next = current.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      );
    }
    if (next === current) return next;
    current = next;
  }
  return current;
}

function normaliseName(name: string): string {
  return decodeFully(name)
    .toLowerCase()
    .replace(/\[.*$/, '')
    .replace(/[\s._-]+/g, '');
}

/** True when a query or matrix parameter of this (raw or decoded) name is a credential: the API refuses it. */
export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAMES.has(normaliseName(name));
}

function looksSecret(name: string): boolean {
  const normalised = normaliseName(name);
  return CREDENTIAL_NAMES.has(normalised) || CREDENTIAL_PARTS.some((part) => normalised.includes(part));
}

/** The parameters of a URL (query and `;` matrix parameters alike), names as sent. */
export function urlParameterNames(url: string): string[] {
  const start = url.search(/[?;]/);
  if (start < 0) return [];
  return url
    .slice(start + 1)
    .split(/[&;?]/)
    .map((pair) => pair.split('=', 1)[0]!)
    .filter(Boolean);
}

const KEY_SHAPE = /sl_(?:live|trial)_[0-9A-Za-z]{8,}/i;
// Runs of characters a key (or its percent-encoded form) is made of; long enough to hold one.
const KEY_CANDIDATE = /[0-9A-Za-z_%]{20,}/g;

/** Replaces anything shaped like a Sharpline API key (also percent-encoded) in free text. */
export function redactKeys(text: string): string {
  return text.replace(KEY_CANDIDATE, (run) => (KEY_SHAPE.test(decodeFully(run)) ? REDACTED : run));
}

/** A loggable form of a request URL: credential-like parameters and key-shaped values replaced. */
export function redactUrl(url: string): string {
  const start = url.search(/[?;]/);
  if (start < 0) return redactKeys(url);
  const head = url.slice(0, start + 1);
  const tail = url
    .slice(start + 1)
    .split(/([&;?])/)
    .map((part) => {
      const equals = part.indexOf('=');
      if (equals < 0) return part;
      return looksSecret(part.slice(0, equals)) ? `${part.slice(0, equals + 1)}${REDACTED}` : part;
    })
    .join('');
  return redactKeys(head + tail);
}

/** A log destination that passes every line through `redactKeys` before `target` sees it. */
export function redactingDestination(target: { write(line: string): unknown } = process.stdout): {
  write(line: string): void;
} {
  return {
    write(line: string) {
      target.write(redactKeys(line));
    },
  };
}

/** The log form of an error: pino's usual fields, with key-shaped text and URL parameters removed. */
export function serializeError(error: Error, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: redactKeys(String(error)), stack: '' };
  const { code, statusCode, cause } = error as Error & { code?: unknown; statusCode?: unknown };
  return {
    type: error.name,
    message: redactUrl(error.message),
    stack: redactUrl(error.stack ?? ''),
    ...(code === undefined ? {} : { code }),
    ...(statusCode === undefined ? {} : { statusCode }),
    ...(cause instanceof Error && depth < 3 ? { cause: serializeError(cause, depth + 1) } : {}),
  };
}

export interface LoggedError {
  [field: string]: unknown;
  type: string;
  message: string;
  stack: string;
}
