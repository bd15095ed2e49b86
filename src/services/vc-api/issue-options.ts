import { invalidInput } from '../../errors';
import { VC_STATUS_PURPOSES, type VcStatusPurpose } from '../../domain/vc-issuers';

/** `options` of POST /credentials/issue, checked. */
export interface IssueOptions {
  readonly created?: string;
  readonly challenge?: string;
  readonly domain?: string;
  readonly credentialId?: string;
  /** The status entries asked for (VC-API `options.credentialStatus`); undefined or [] means none. */
  readonly statusPurposes?: readonly VcStatusPurpose[];
  /** Claims the holder must always disclose (selective-disclosure suites only: bbs-2023), as JSON pointers. */
  readonly mandatoryPointers?: readonly string[];
}

const KNOWN = new Set(['created', 'challenge', 'domain', 'credentialId', 'mandatoryPointers', 'credentialStatus']);
/** XML Schema dateTime with a time zone, as Data Integrity requires for `created`. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const ENTRY_TYPES = new Set(['BitstringStatusListEntry', 'BitstringStatusList']);

const bad = (field: string, message: string): never => {
  throw invalidInput(`options.${field} ${message}`, [{ field: `options.${field}`, message }]);
};

function statusPurposes(value: unknown): VcStatusPurpose[] {
  const items = Array.isArray(value) ? value : [value];
  const out: VcStatusPurpose[] = [];
  items.forEach((item, i) => {
    const field = Array.isArray(value) ? `credentialStatus[${i}]` : 'credentialStatus';
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return bad(field, 'must be an object { type: "BitstringStatusListEntry", statusPurpose }');
    const o = item as Record<string, unknown>;
    if (typeof o['type'] !== 'string' || !ENTRY_TYPES.has(o['type'])) return bad(`${field}.type`, 'must be BitstringStatusListEntry');
    // `{ type }` alone is how VC-API clients ask for "a status entry": the purpose every list has.
    const purpose = o['statusPurpose'] ?? 'revocation';
    if (typeof purpose !== 'string' || !(VC_STATUS_PURPOSES as readonly string[]).includes(purpose)) return bad(`${field}.statusPurpose`, `must be one of ${VC_STATUS_PURPOSES.join(', ')}`);
    if (out.includes(purpose as VcStatusPurpose)) return bad(`${field}.statusPurpose`, 'is given twice');
    out.push(purpose as VcStatusPurpose);
  });
  return out;
}

/**
 * Checks the issue options. Unknown options are refused (the spec closes the object);
 * `mandatoryPointers` is checked here as a list of JSON pointers, and refused by the issuance for
 * an instance whose suite has no selective disclosure (ignoring it would issue something the caller
 * did not ask for).
 */
export function parseIssueOptions(options: Record<string, unknown> | undefined): IssueOptions {
  if (options === undefined) return {};
  for (const k of Object.keys(options)) if (!KNOWN.has(k)) bad(k, 'is not an issue option (created, challenge, domain, credentialId, credentialStatus)');
  const pointers = options['mandatoryPointers'];
  if (pointers !== undefined) {
    if (!Array.isArray(pointers) || pointers.length > 256 || !pointers.every((p) => typeof p === 'string' && /^(\/([^~/]|~[01])*)+$/.test(p) && p.length <= 512)) {
      bad('mandatoryPointers', 'must be a list of at most 256 JSON pointers such as "/credentialSubject/name"');
    }
  }
  const out: { -readonly [K in keyof IssueOptions]: IssueOptions[K] } = {};
  for (const k of ['challenge', 'domain', 'credentialId'] as const) {
    const v = options[k];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v.length === 0) bad(k, 'must be a non-empty string');
    out[k] = v as string;
  }
  const created = options['created'];
  if (created !== undefined) {
    if (typeof created !== 'string' || !DATE_TIME.test(created) || Number.isNaN(Date.parse(created))) bad('created', 'must be an XML Schema dateTime with a time zone, e.g. 2026-01-01T00:00:00Z');
    out.created = created as string;
  }
  if (options['credentialStatus'] !== undefined) out.statusPurposes = statusPurposes(options['credentialStatus']);
  if (pointers !== undefined) out.mandatoryPointers = [...(pointers as string[])];
  return out;
}
