import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { deflatePiece, gzipJoin, storedPiece, type DeflatedPiece } from './gzip-join.ts';
import { etagMatches, negotiateEncoding } from '../http/static-files.ts';
import type { OddsPart } from './views.ts';

// The answer of GET /v1/odds, assembled from the cached per-event JSON (decision 084): identity as the bytes
// concatenated; gzip as one gzip member whose per-event pieces were deflated once per rendering of the event and are
// reused by every later request (the small head with `as_of` goes in as a stored block, and the CRC is combined from the pieces' CRCs). A weak ETag names the
// parts, so an unchanged answer revalidates with 304.

const COMMA = deflatePiece(Buffer.from(','));
const TAIL = deflatePiece(Buffer.from(']}'));
const RAW_COMMA = COMMA.raw;
const RAW_TAIL = TAIL.raw;
/** Only the presence of `gzip` matters to negotiateEncoding: brotli cannot be assembled from pieces. */
const GZIP_ONLY = { gzip: Buffer.alloc(0) };

function deflated(part: OddsPart): DeflatedPiece {
  part.piece ??= deflatePiece(part.raw);
  return part.piece;
}

/**
 * Weak, because the head's `as_of` of a real-time answer is the time of the request: two answers with the same parts
 * carry the same prices and differ only in that stamp. Delayed answers include their (floored) horizon.
 */
export function oddsEtag(delaySeconds: number, at: number | undefined, parts: readonly OddsPart[]): string {
  const hash = createHash('sha256');
  hash.update(`${delaySeconds}|${at ?? ''}|`);
  for (const part of parts) hash.update(`${part.id},`);
  return `W/"${hash.digest('base64url').slice(0, 27)}"`;
}

export function sendOdds(
  request: FastifyRequest,
  reply: FastifyReply,
  head: string,
  parts: readonly OddsPart[],
  etag: string,
): FastifyReply {
  void reply
    .header('etag', etag)
    .header('vary', 'Accept-Encoding')
    .header('cache-control', 'no-cache')
    .type('application/json; charset=utf-8');
  // Weak comparison (RFC 9110 §8.8.3.2): etagMatches strips `W/` from the request's tags.
  if (etagMatches(request.headers['if-none-match'], etag.replace(/^W\//, ''))) return reply.code(304).send();
  const headBytes = Buffer.from(head);
  if (negotiateEncoding(request.headers['accept-encoding'], GZIP_ONLY) === 'gzip') {
    const pieces: DeflatedPiece[] = [storedPiece(headBytes)];
    parts.forEach((part, index) => {
      if (index > 0) pieces.push(COMMA);
      pieces.push(deflated(part));
    });
    pieces.push(TAIL);
    const body = Buffer.concat(gzipJoin(pieces));
    return reply.header('content-encoding', 'gzip').header('content-length', body.length).send(body);
  }
  const chunks: Buffer[] = [headBytes];
  parts.forEach((part, index) => {
    if (index > 0) chunks.push(RAW_COMMA);
    chunks.push(part.raw);
  });
  chunks.push(RAW_TAIL);
  const body = Buffer.concat(chunks);
  return reply.header('content-length', body.length).send(body);
}
