import { describe, expect, it } from 'vitest';
import { hasVisibleText, TrialFormSchema } from './trial-request.ts';

const nameErrors = (name: string) => {
  const parsed = TrialFormSchema.safeParse({ name, email: 'ada@example.com' });
  return parsed.success
    ? []
    : parsed.error.issues.filter((issue) => issue.path[0] === 'name').map((i) => i.message);
};
const emailErrors = (email: string) => {
  const parsed = TrialFormSchema.safeParse({ name: 'Ada', email });
  return parsed.success
    ? []
    : parsed.error.issues.filter((issue) => issue.path[0] === 'email').map((i) => i.message);
};

describe('TrialFormSchema', () => {
  it('says "Full Name is required" for a name that is empty once invisible characters are removed', () => {
    for (const name of ['', '\u200b', ' \u200b\u200c\u200d\u2060\ufeff ', '\u00ad', '\u3164', '\u0301']) {
      expect(nameErrors(name), JSON.stringify(name)).toContain('Full Name is required');
    }
  });

  it('refuses bidi overrides and isolates and C0/C1 controls in a name', () => {
    for (const char of [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u0007',
      '\u001b',
      '\u007f',
      '\u0080',
      '\u0085',
      '\u009b',
      '\u009f',
    ]) {
      expect(nameErrors(`Ada${char}Lovelace`), char.codePointAt(0)!.toString(16)).toEqual([
        'Must not contain control or text-direction characters',
      ]);
    }
  });

  it('accepts names in any script, with accents, apostrophes and joiners inside visible text', () => {
    for (const name of [
      'Ada Lovelace',
      "Seán O'Brien",
      'Zoë Ünal',
      'محمد',
      '王小明',
      'देवनागरी',
      '👩\u200d💻 Ada',
    ]) {
      expect(nameErrors(name), name).toEqual([]);
    }
    expect(hasVisibleText('A\u200b')).toBe(true);
  });

  it('refuses a local part over 64 characters and an address over 254, and accepts exactly 64', () => {
    expect(emailErrors(`${'a'.repeat(64)}@example.com`)).toEqual([]);
    expect(emailErrors(`${'a'.repeat(65)}@example.com`)).toEqual([
      'The part before @ must be at most 64 characters',
    ]);
    expect(emailErrors(`a@${'b'.repeat(250)}.com`)).toContain('Must be at most 254 characters');
  });
});
