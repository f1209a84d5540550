// What an arb alert does (issue 14), loaded on use (dynamic import) so the first paint carries none of it: a short
// chime synthesised with the Web Audio API (no audio file) and a desktop notification when the bettor allowed them.

let context: AudioContext | undefined;

/**
 * Called when the bettor turns Alerts on (a user gesture): creates the audio context, which browsers only let start
 * from a gesture, and asks for notification permission if it was never asked.
 */
export async function prepareAlerts(): Promise<NotificationPermission | 'unsupported'> {
  try {
    context ??= new AudioContext();
    void context.resume();
  } catch {
    // No Web Audio: notifications and the title still work.
  }
  if (typeof Notification === 'undefined') return 'unsupported';
  if (Notification.permission === 'default') return Notification.requestPermission();
  return Notification.permission;
}

/** Two short sine notes (about 0.3 s in all), quiet enough not to startle. */
export function chime() {
  try {
    context ??= new AudioContext();
    const ctx = context;
    if (ctx.state === 'suspended') void ctx.resume();
    const start = ctx.currentTime + 0.01;
    [880, 1320].forEach((frequency, i) => {
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      const at = start + i * 0.14;
      oscillator.type = 'sine';
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.13);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start(at);
      oscillator.stop(at + 0.14);
    });
  } catch {
    // Audio unavailable: the notification and the title carry the alert.
  }
}

/** A desktop notification, only with permission granted; one tag, so a new alert replaces the previous one. */
export function notify(title: string, body: string) {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    new Notification(title, { body, tag: 'sharpline-arb', silent: true });
  } catch {
    // Some platforms allow notifications from service workers only.
  }
}
