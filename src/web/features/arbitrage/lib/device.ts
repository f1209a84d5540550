// Device detection (docs/product.md §9): mobile when the user agent says so, the pointer is coarse, it is a touch Mac (an iPad
// asking for the desktop site), or the viewport is 820 px wide or less. Inputs are explicit so the rule is testable;
// the browser layer reads them from navigator, matchMedia and innerWidth.
import type { DeviceKind } from '#domain/sportsbook-links.ts';

export const MOBILE_MAX_WIDTH = 820;

export interface DeviceInputs {
  userAgent: string;
  /** `matchMedia('(pointer: coarse)').matches` */
  coarsePointer: boolean;
  /** `navigator.maxTouchPoints` */
  maxTouchPoints: number;
  /** `navigator.platform` (e.g. "MacIntel") */
  platform: string;
  /** Viewport width in CSS pixels. */
  width: number;
}

const MOBILE_UA = /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile|Silk|Kindle/i;

export function isTouchMac(inputs: Pick<DeviceInputs, 'platform' | 'maxTouchPoints'>): boolean {
  return /^Mac/i.test(inputs.platform) && inputs.maxTouchPoints > 1;
}

export function detectDevice(inputs: DeviceInputs): DeviceKind {
  if (MOBILE_UA.test(inputs.userAgent)) return 'mobile';
  if (inputs.coarsePointer) return 'mobile';
  if (isTouchMac(inputs)) return 'mobile';
  if (inputs.width <= MOBILE_MAX_WIDTH) return 'mobile';
  return 'desktop';
}
