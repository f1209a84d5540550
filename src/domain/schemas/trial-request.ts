import { z } from 'zod';

// SPEC §3 "Trial request" and §7 call 1. The form validates with TrialFormSchema; the server validates the whole
// payload with TrialRequestSchema. Unknown fields are stripped (zod's default for objects).

const noControlChars = (value: string) => !/[\u0000-\u001f\u007f]/.test(value);
const singleLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .refine(noControlChars, 'Must not contain control characters');

/** Free text: line breaks and tabs allowed, other control characters (NUL included) refused. */
const multiLine = (max: number) =>
  z
    .string()
    .max(max, `Must be at most ${max} characters`)
    .refine(
      (value) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value),
      'Must not contain control characters',
    );

export const TRIAL_LIMITS = {
  name: 120,
  email: 254,
  company: 160,
  useCase: 500,
  expectedVolume: 120,
  message: 2000,
} as const;

export const TrialFormSchema = z.object({
  name: singleLine(TRIAL_LIMITS.name).min(1, 'Full Name is required'),
  email: z
    .string()
    .trim()
    .min(1, 'Email is required')
    .max(TRIAL_LIMITS.email, `Must be at most ${TRIAL_LIMITS.email} characters`)
    .pipe(z.email('Enter a valid email address')),
  company: singleLine(TRIAL_LIMITS.company).default(''),
});

export const TrialRequestSchema = TrialFormSchema.extend({
  useCase: singleLine(TRIAL_LIMITS.useCase).default(''),
  expectedVolume: singleLine(TRIAL_LIMITS.expectedVolume).default(''),
  message: multiLine(TRIAL_LIMITS.message).default(''),
  timestamp: singleLine(64),
  userAgent: singleLine(512).default(''),
  referrer: singleLine(2048).default('Direct'),
  promotekit_referral: singleLine(200).optional(),
  /** Honeypot: a field hidden from people; bots fill it. */
  website: z.string().max(500).optional(),
});

export type TrialForm = z.input<typeof TrialFormSchema>;
export type TrialRequest = z.infer<typeof TrialRequestSchema>;
export type TrialRequestInput = z.input<typeof TrialRequestSchema>;
