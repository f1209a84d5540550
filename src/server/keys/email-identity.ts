// What "one trial per email" and the per-email limit count: the mailbox an address reaches, not its spelling.
// Lower-cased; a `+tag` is removed when something precedes it (sub-addressing reaches the same mailbox at the big
// providers); for gmail.com and googlemail.com dots are removed and both domains are one. The email itself still goes
// to the address as typed. See docs/decisions/028-one-trial-per-mailbox.md; the migration 0002 has the SQL twin.

const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

export function emailIdentity(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}
