import type { VcProblem } from '../../vc/ports';

/**
 * Problem details as the VC-API reports them in `warnings` / `errors` (RFC 9457 members `type`,
 * `title`, `detail`). The machine names of VcProblem become the URLs their specifications define:
 * VC Data Model 2.0 §7.1, Data Integrity §2.3, Bitstring Status List §3.6; names no
 * specification defines get a URN of this service.
 */
export interface ProblemDetail {
  readonly type: string;
  readonly title: string;
  readonly detail?: string;
}

/** What the VC-API verify routes answer: `checks` names what was checked; `verified` is true only without errors. */
export interface VcVerificationResult {
  readonly verified: boolean;
  readonly checks: string[];
  readonly warnings: ProblemDetail[];
  readonly errors: ProblemDetail[];
}

const VCDM = new Set(['PARSING_ERROR', 'CRYPTOGRAPHIC_SECURITY_ERROR', 'MALFORMED_VALUE_ERROR', 'RANGE_ERROR']);
const DATA_INTEGRITY = new Set(['PROOF_GENERATION_ERROR', 'PROOF_VERIFICATION_ERROR', 'PROOF_TRANSFORMATION_ERROR', 'INVALID_DOMAIN_ERROR', 'INVALID_CHALLENGE_ERROR', 'INVALID_PROOF_CONFIGURATION']);
const STATUS_LIST = new Set(['STATUS_RETRIEVAL_ERROR', 'STATUS_VERIFICATION_ERROR', 'STATUS_LIST_LENGTH_ERROR']);

export function problemType(name: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(name)) return name;
  if (VCDM.has(name)) return `https://www.w3.org/TR/vc-data-model#${name}`;
  if (DATA_INTEGRITY.has(name)) return `https://w3id.org/security#${name}`;
  if (STATUS_LIST.has(name)) return `https://www.w3.org/ns/credentials/status-list#${name}`;
  return `urn:credgate:vc-api:${name}`;
}

export function toProblemDetail(p: VcProblem, prefix?: string): ProblemDetail {
  const detail = prefix ? `${prefix}: ${p.detail ?? p.title}` : p.detail;
  return { type: problemType(p.type), title: p.title, ...(detail !== undefined ? { detail } : {}) };
}

export const problem = (type: string, title: string, detail?: string): VcProblem => ({ type, title, ...(detail !== undefined ? { detail } : {}) });
