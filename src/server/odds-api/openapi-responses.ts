import { problemExample, problemNamedIn } from '#domain/schemas/api/problems.ts';

// The last pass over the generated OpenAPI document (decision 158), so that every response carries an example where
// a reader (and /docs) looks for it, the media object:
// - an error response (4xx, 5xx) is `application/problem+json`, as the server sends it, with the example of the first
//   problem its description names in backticks (`src/domain/schemas/api/problems.ts`);
// - a success response whose schema has `examples` (inline, or on the named schema it refers to) gets the first as
//   its `example`.
// The converter cannot do either: it drops the siblings of a `$ref` (a named answer's examples), and a response is
// documented as `application/json` whatever the route sends.

interface Media {
  schema?: { $ref?: string; examples?: unknown[] } & Record<string, unknown>;
  example?: unknown;
  examples?: unknown;
}

interface Response {
  description?: string;
  content?: Record<string, Media>;
}

interface Document {
  paths?: Record<string, Record<string, { responses?: Record<string, Response> }>>;
  components?: { schemas?: Record<string, { examples?: unknown[] }> };
}

const PROBLEM_MEDIA_TYPE = 'application/problem+json';
const PROBLEM_REF = '#/components/schemas/Problem';

function schemaExample(schema: Media['schema'], document: Document): unknown {
  if (!schema) return undefined;
  if (Array.isArray(schema.examples)) return schema.examples[0];
  const ref = schema.$ref;
  if (!ref?.startsWith('#/components/schemas/')) return undefined;
  const named = document.components?.schemas?.[ref.slice('#/components/schemas/'.length)];
  return Array.isArray(named?.examples) ? named.examples[0] : undefined;
}

export function withResponseExamples<D extends object>(document: D): D {
  const doc = document as Document;
  for (const methods of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const code = Number(status);
        if (code >= 400) {
          const media = Object.values(response.content ?? {})[0];
          const problem = problemNamedIn(response.description ?? '', code);
          response.content = {
            [PROBLEM_MEDIA_TYPE]: {
              schema: media?.schema ?? { $ref: PROBLEM_REF },
              ...(problem ? { example: problemExample(problem) } : {}),
            },
          };
          continue;
        }
        for (const media of Object.values(response.content ?? {})) {
          if (media.example !== undefined || media.examples !== undefined) continue;
          const example = schemaExample(media.schema, doc);
          if (example === undefined) continue;
          media.example = example;
          // An inline schema's copy is dropped (the media's is the one readers use); a named schema keeps its own.
          if (media.schema && !media.schema.$ref) delete media.schema.examples;
        }
      }
    }
  }
  return document;
}
