import { parseStatusListIndex } from '../../domain/status-list';
import type { JsonObject } from '../../vc/ports';
import type { FormatStatus, StatusReference } from '../format';

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
const typesOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);

/**
 * W3C Bitstring Status List entries (`credentialStatus`), shared by every JSON-LD format: the
 * lists a credential is in, for revocation to flip and verifiers to read. Entries of other types
 * and malformed ones name no list here; verification reports them (src/vc/status).
 */
export const BITSTRING_STATUS: FormatStatus = {
  mechanism: 'BitstringStatusList',
  referencesOf(credential: JsonObject): StatusReference[] {
    const status = credential['credentialStatus'];
    if (status === undefined || status === '') return [];
    const out: StatusReference[] = [];
    for (const entry of Array.isArray(status) ? status : [status]) {
      if (!isObject(entry) || !typesOf(entry['type']).includes('BitstringStatusListEntry')) continue;
      const uri = entry['statusListCredential'];
      const purpose = entry['statusPurpose'];
      if (typeof uri !== 'string' || typeof purpose !== 'string') continue;
      try {
        out.push({ uri, purpose, index: parseStatusListIndex(entry['statusListIndex']) });
      } catch {
        // A malformed index names no list; the status check reports it.
      }
    }
    return out;
  },
};
