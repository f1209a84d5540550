import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches, negotiateEncoding, type StaticEntry } from './static-files.ts';

/**
 * Answers from precomputed bytes: 304 on a matching ETag, otherwise the best encoding the client accepts.
 * Shared by the site's pages and assets and by byte-snapshot routes such as the arbitrage feed.
 */
export function sendEntry(
  request: FastifyRequest,
  reply: FastifyReply,
  entry: StaticEntry,
  headers: Record<string, string>,
  status = 200,
): FastifyReply {
  void reply
    .headers(headers)
    .header('etag', entry.etag)
    .header('vary', headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding');
  if (status === 200 && etagMatches(request.headers['if-none-match'], entry.etag)) {
    return reply.code(304).send();
  }
  const encoding = negotiateEncoding(request.headers['accept-encoding'], entry);
  const body = encoding ? entry[encoding]! : entry.body;
  void reply.code(status).type(entry.contentType);
  if (encoding) void reply.header('content-encoding', encoding);
  return reply.header('content-length', body.length).send(body);
}
