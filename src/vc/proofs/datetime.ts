/**
 * XMLSchema dateTime as Data Integrity uses it for `created` / `expires`: date, time, optional
 * fraction and an optional zone (Z or ±hh:mm). Without a zone the value is read as UTC, as
 * jsonld-signatures does.
 */
const XSD_DATETIME = /^(-?\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;

/** Milliseconds since the epoch, or undefined when `value` is not a valid dateTime. */
export function parseXsdDateTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = XSD_DATETIME.exec(value);
  if (!m) return undefined;
  const [, , month, day, hour, minute, second] = m.map(Number) as number[];
  if (month === undefined || day === undefined || hour === undefined || minute === undefined || second === undefined) return undefined;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Date.parse(m[8] === undefined ? `${value}Z` : value);
  if (Number.isNaN(ms)) return undefined;
  // Date.parse rolls 2023-02-30 over into March; a real dateTime names a day that exists.
  const zoneless = new Date(ms + zoneOffsetMs(m[8]));
  if (zoneless.getUTCDate() !== day) return undefined;
  return ms;
}

function zoneOffsetMs(zone: string | undefined): number {
  if (zone === undefined || zone === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const [h, mi] = zone.slice(1).split(':').map(Number) as [number, number];
  return sign * (h * 60 + mi) * 60_000;
}

/** `now` as XMLSchema dateTime in whole seconds, UTC (`2024-05-01T10:00:00Z`). */
export function xsdDateTimeNow(now: Date): string {
  return `${now.toISOString().slice(0, 19)}Z`;
}
