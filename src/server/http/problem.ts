// RFC 9457 problem details. Every error a client sees goes through here.
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  errors?: Record<string, string[]>;
  [extension: string]: unknown;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';
const TYPE_BASE = 'https://sharpline.io/problems/';

/** Domain and HTTP errors with a stable code; `code` becomes the problem `type`. */
export class HttpProblem extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    public readonly title: string,
    public readonly detail?: string,
    public readonly extras: Record<string, unknown> = {},
    public readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? title);
    this.name = 'HttpProblem';
  }

  toProblem(): Problem {
    return {
      type: problemType(this.code),
      title: this.title,
      status: this.status,
      ...(this.detail ? { detail: this.detail } : {}),
      ...this.extras,
    };
  }
}

export function problemType(code: string): string {
  return `${TYPE_BASE}${code}`;
}
