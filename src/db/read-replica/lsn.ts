/**
 * PostgreSQL WAL positions (pg_lsn) as the text PostgreSQL prints, `16/B374D848`: two hexadecimal
 * halves of a 64-bit byte position. They travel in the `Credgate-LSN` header and are compared as
 * numbers here, never as strings ('9/0' < '10/0').
 */
export type Lsn = bigint;

const LSN_TEXT = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/;

/** The position, or null when the text is not a pg_lsn. */
export function parseLsn(text: string): Lsn | null {
  const m = LSN_TEXT.exec(text.trim());
  if (!m) return null;
  return (BigInt(`0x${m[1]}`) << 32n) | BigInt(`0x${m[2]}`);
}

/** The text form PostgreSQL accepts back (`SELECT '16/B374D848'::pg_lsn`). */
export function formatLsn(lsn: Lsn): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}
