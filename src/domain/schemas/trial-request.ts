import { z } from 'zod';

// docs/product.md §3 "Trial request" and §7 call 1. The form validates with TrialFormSchema; the server validates the whole
// payload with TrialRequestSchema. Unknown fields are stripped (zod's default for objects).

// Refused everywhere: C0 and C1 controls (NUL, ESC, CSI…) and bidirectional overrides/isolates, which make stored text
// print differently from what it is (docs/decisions/027-visible-text-only.md). Line breaks and tabs only in free text.
const CONTROL_OR_BIDI = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const CONTROL_OR_BIDI_EXCEPT_LINES =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const CONTROL_MESSAGE = 'Must not contain control or text-direction characters';
/** Characters that show nothing on their own: format (zero-width…), controls, spaces, combining marks, fillers. */
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Z}\p{M}\s\u115f\u1160\u3164\uffa0]/gu;

/** Whether the text has at least one character a reader can see. */
export const hasVisibleText = (value: string) => value.replace(INVISIBLE, '').length > 0;

const singleLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .refine((value) => !CONTROL_OR_BIDI.test(value), CONTROL_MESSAGE);

/** Free text: line breaks and tabs allowed, other control characters (NUL included) refused. */
const multiLine = (max: number) =>
  z
    .string()
    .max(max, `Must be at most ${max} characters`)
    .refine((value) => !CONTROL_OR_BIDI_EXCEPT_LINES.test(value), CONTROL_MESSAGE);

/** RFC 5321 §4.5.3.1.1: a local part (before the last @) has at most 64 octets (z.email() admits ASCII only). */
export const MAX_EMAIL_LOCAL_PART = 64;
const localPartFits = (email: string) => email.lastIndexOf('@') <= MAX_EMAIL_LOCAL_PART;

export const TRIAL_LIMITS = {
  name: 120,
  email: 254,
  company: 160,
  useCase: 500,
  expectedVolume: 120,
  message: 2000,
} as const;

/** An email address as the site's forms take it: trimmed, required, at most 254 characters, a 64-character local part. */
export const EmailFieldSchema = z
  .string()
  .trim()
  .min(1, 'Email is required')
  .max(TRIAL_LIMITS.email, `Must be at most ${TRIAL_LIMITS.email} characters`)
  .pipe(z.email('Enter a valid email address'))
  .refine(localPartFits, `The part before @ must be at most ${MAX_EMAIL_LOCAL_PART} characters`);

export const TrialFormSchema = z.object({
  name: singleLine(TRIAL_LIMITS.name)
    .min(1, 'Full Name is required')
    .refine((value) => value === '' || hasVisibleText(value), 'Full Name is required'),
  email: EmailFieldSchema,
  company: singleLine(TRIAL_LIMITS.company)
    .refine((value) => value === '' || hasVisibleText(value), 'Company must contain visible characters')
    .default(''),
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

/** POST /api/lost-key, the pricing page's "Lost your key?" form (decision 142). */
export const LostKeyRequestSchema = z.object({
  email: EmailFieldSchema,
  /** Honeypot, as the trial form's. */
  website: z.string().max(500).optional(),
});
export type LostKeyRequest = z.infer<typeof LostKeyRequestSchema>;
