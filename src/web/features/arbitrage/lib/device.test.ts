import { describe, expect, it } from 'vitest';
import { detectDevice, MOBILE_MAX_WIDTH, type DeviceInputs } from './device.ts';

const desktop: DeviceInputs = {
  userAgent:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36',
  coarsePointer: false,
  maxTouchPoints: 0,
  platform: 'Linux x86_64',
  width: 1280,
};

describe('detectDevice', () => {
  it('is desktop for a wide window with a fine pointer and a desktop user agent', () => {
    expect(detectDevice(desktop)).toBe('desktop');
  });

  it('is mobile when the user agent says so', () => {
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
    const android =
      'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 Chrome/142.0 Mobile Safari/537.36';
    expect(detectDevice({ ...desktop, userAgent: iphone })).toBe('mobile');
    expect(detectDevice({ ...desktop, userAgent: android })).toBe('mobile');
  });

  it('is mobile when the pointer is coarse', () => {
    expect(detectDevice({ ...desktop, coarsePointer: true })).toBe('mobile');
  });

  it('is mobile on a touch Mac (an iPad asking for the desktop site) but not on a Mac without touch', () => {
    const mac = {
      ...desktop,
      userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605.1.15',
      platform: 'MacIntel',
    };
    expect(detectDevice({ ...mac, maxTouchPoints: 5 })).toBe('mobile');
    expect(detectDevice({ ...mac, maxTouchPoints: 0 })).toBe('desktop');
  });

  it('is mobile at 820 px wide or less and desktop at 821 px', () => {
    expect(MOBILE_MAX_WIDTH).toBe(820);
    expect(detectDevice({ ...desktop, width: 820 })).toBe('mobile');
    expect(detectDevice({ ...desktop, width: 360 })).toBe('mobile');
    expect(detectDevice({ ...desktop, width: 821 })).toBe('desktop');
  });
});
