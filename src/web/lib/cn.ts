import { clsx, type ClassValue } from 'clsx';

// Joins class names. No tailwind-merge (8.6 KB gzip on every page): callers avoid passing conflicting utilities.
export function cn(...inputs: ClassValue[]) {
  return clsx(inputs);
}
