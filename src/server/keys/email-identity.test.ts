import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { emailIdentity } from './email-identity.ts';

const cases: Array<[string, string]> = [
  ['Ada@Example.com', 'ada@example.com'],
  [' ada+trial@example.com ', 'ada@example.com'],
  ['ada+a+b@example.com', 'ada@example.com'],
  ['+only@example.com', '+only@example.com'],
  ['A.D.A+x@Gmail.com', 'ada@gmail.com'],
  ['a.da@googlemail.com', 'ada@gmail.com'],
  ['a.da@example.com', 'a.da@example.com'],
  ['a.da+x@mail.gmail.com', 'a.da@mail.gmail.com'],
];

describe('emailIdentity', () => {
  it('lower-cases, drops a +tag, and folds Gmail dots and googlemail.com', () => {
    for (const [typed, identity] of cases) expect(emailIdentity(typed), typed).toBe(identity);
  });

  it('agrees with the SQL twin in migration 0002, which fills existing rows', async () => {
    const migration = readFileSync(
      path.join(path.dirname(fileURLToPath(import.meta.url)), '../db/migrations/0002_trial_hardening.sql'),
      'utf8',
    );
    const createFunction = /CREATE FUNCTION email_identity[\s\S]*?\n\$\$;/.exec(migration)![0];
    const db = await PGlite.create();
    try {
      await db.exec(createFunction);
      for (const [typed, identity] of cases) {
        const result = await db.query<{ identity: string }>('SELECT email_identity($1) AS identity', [typed]);
        expect(result.rows[0]!.identity, typed).toBe(identity);
      }
    } finally {
      await db.close();
    }
  });
});
