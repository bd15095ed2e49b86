import type { JsonObject, VcProblem } from '../ports';
import { checkNamesAndDescriptions, checkRelatedResources, checkTypedMember, TYPED_MEMBERS } from './resources';
import { credentialVersion } from './version';
import {
  asList,
  CREDENTIALS_V1_CONTEXT,
  CREDENTIALS_V2_CONTEXT,
  instantOf,
  isDateTimeStamp,
  isJsonObject,
  isUrl,
  MALFORMED,
  PARSING,
  problem,
  typesOf,
  type VcVersion,
} from './values';

/**
 * Structural rules of VCDM 1.1 and 2.0 that hold without JSON-LD processing. Each problem's title
 * starts with the property it is about, so a client can see which rule failed.
 */

const COMPACT_JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

function malformed(title: string, detail?: string): VcProblem {
  return problem(MALFORMED, title, detail);
}

function checkContext(doc: JsonObject, version: VcVersion | undefined): VcProblem[] {
  const context = doc['@context'];
  if (version === undefined) {
    return [malformed(`@context must start with ${CREDENTIALS_V1_CONTEXT} (VCDM 1.1) or ${CREDENTIALS_V2_CONTEXT} (VCDM 2.0)`)];
  }
  const entries = asList(context);
  // Both versions allow inline context objects after the base URL (VCDM 1.1 §4.1, VCDM 2.0 §4.3);
  // the base contexts are @protected, so an inline object cannot redefine their terms.
  // A string entry is a context URL (VCDM 2.0 §4.3): anything else could never be loaded.
  const bad = entries.findIndex((c, i) => !(isUrl(c) || (i > 0 && isJsonObject(c))));
  if (bad >= 0) return [malformed('@context entries must each be a URL or a context object', `@context[${bad}]`)];
  const other = version === '1.1' ? CREDENTIALS_V2_CONTEXT : CREDENTIALS_V1_CONTEXT;
  if (entries.includes(other)) return [malformed(`@context must not mix the VCDM 1.1 and 2.0 base contexts`)];
  return [];
}

function checkType(doc: JsonObject, required: string): VcProblem[] {
  const type = doc.type;
  const list = asList(type);
  if (type === undefined || list.length === 0 || list.some((t) => typeof t !== 'string' || t === '')) {
    return [malformed(`type must be a string or a list of strings including ${required}`)];
  }
  return list.includes(required) ? [] : [malformed(`type must include ${required}`)];
}

function checkId(value: unknown, path: string): VcProblem[] {
  return value === undefined || isUrl(value) ? [] : [malformed(`${path} must be a URL`, path)];
}

function checkIssuer(doc: JsonObject): VcProblem[] {
  const issuer = doc.issuer;
  if (issuer === undefined) return [malformed('issuer is required')];
  if (isUrl(issuer)) return [];
  if (isJsonObject(issuer) && isUrl(issuer.id)) return [];
  return [malformed('issuer must be a URL or an object whose id is a URL')];
}

function checkSubjects(doc: JsonObject): VcProblem[] {
  const subject = doc.credentialSubject;
  if (subject === undefined) return [malformed('credentialSubject is required')];
  const list = asList(subject);
  if (list.length === 0) return [malformed('credentialSubject must not be an empty list')];
  const problems: VcProblem[] = [];
  list.forEach((s, i) => {
    const path = Array.isArray(subject) ? `credentialSubject[${i}]` : 'credentialSubject';
    if (!isJsonObject(s)) problems.push(malformed(`credentialSubject must be an object or a list of objects`, path));
    else if (Object.keys(s).length === 0) problems.push(malformed('credentialSubject must make at least one claim', path));
    else problems.push(...checkId(s.id, `${path}.id`));
  });
  return problems;
}

function checkDate(doc: JsonObject, name: string): VcProblem[] {
  const value = doc[name];
  return value === undefined || isDateTimeStamp(value) ? [] : [malformed(`${name} must be an XMLSchema dateTimeStamp (date, time and timezone)`, name)];
}

function checkOrder(doc: JsonObject, from: string, until: string): VcProblem[] {
  const start = instantOf(doc[from]);
  const end = instantOf(doc[until]);
  return start !== undefined && end !== undefined && end < start ? [malformed(`${until} must not be before ${from}`, until)] : [];
}

/** 1.1 names the period issuanceDate/expirationDate; 2.0 validFrom/validUntil. Each version's terms only. */
function checkDates(doc: JsonObject, version: VcVersion): VcProblem[] {
  if (version === '1.1') {
    const problems: VcProblem[] = [];
    if (doc.issuanceDate === undefined) problems.push(malformed('issuanceDate is required in VCDM 1.1'));
    for (const name of ['validFrom', 'validUntil'] as const) {
      if (doc[name] !== undefined) problems.push(malformed(`${name} is a VCDM 2.0 property; VCDM 1.1 uses issuanceDate/expirationDate`, name));
    }
    return [...problems, ...checkDate(doc, 'issuanceDate'), ...checkDate(doc, 'expirationDate'), ...checkOrder(doc, 'issuanceDate', 'expirationDate')];
  }
  const problems: VcProblem[] = [];
  for (const name of ['issuanceDate', 'expirationDate'] as const) {
    if (doc[name] !== undefined) problems.push(malformed(`${name} is a VCDM 1.1 property; VCDM 2.0 uses validFrom/validUntil`, name));
  }
  return [...problems, ...checkDate(doc, 'validFrom'), ...checkDate(doc, 'validUntil'), ...checkOrder(doc, 'validFrom', 'validUntil')];
}

/** credentialStatus, credentialSchema …: objects with a `type`; `id` a URL where present or required. */
function checkTypedEntries(doc: JsonObject, name: string, idRequired: boolean): VcProblem[] {
  const value = doc[name];
  if (value === undefined) return [];
  const list = asList(value);
  if (list.length === 0) return [malformed(`${name} must not be an empty list`, name)];
  const problems: VcProblem[] = [];
  list.forEach((entry, i) => {
    const path = Array.isArray(value) ? `${name}[${i}]` : name;
    if (!isJsonObject(entry)) {
      problems.push(malformed(`${name} must be an object or a list of objects`, path));
      return;
    }
    if (typesOf(entry.type).length === 0) problems.push(malformed(`${name} entries must have a type`, `${path}.type`));
    if (idRequired && entry.id === undefined) problems.push(malformed(`${name} entries must have an id`, `${path}.id`));
    problems.push(...checkId(entry.id, `${path}.id`));
  });
  return problems;
}

/** Problems with a verifiable credential's structure (both data model versions); [] when it is well formed. */
export function checkCredentialShape(vc: unknown): VcProblem[] {
  if (!isJsonObject(vc)) return [problem(PARSING, 'a verifiable credential must be a JSON object')];
  const version = credentialVersion(vc);
  const problems = [...checkContext(vc, version), ...checkType(vc, 'VerifiableCredential'), ...checkId(vc.id, 'id')];
  problems.push(...checkIssuer(vc), ...checkSubjects(vc));
  // 1.1 §4.9: a status must be dereferenceable, so it names its id; 2.0 §4.10 makes the id optional.
  problems.push(...checkTypedEntries(vc, 'credentialStatus', version === '1.1'));
  problems.push(...checkTypedEntries(vc, 'credentialSchema', true));
  for (const member of TYPED_MEMBERS) problems.push(...checkTypedMember(vc, member));
  problems.push(...checkRelatedResources(vc), ...checkNamesAndDescriptions(vc));
  if (version !== undefined) problems.push(...checkDates(vc, version));
  return problems;
}

const ENVELOPED_CREDENTIAL = 'EnvelopedVerifiableCredential';

function checkEmbeddedCredential(entry: unknown, path: string, version: VcVersion | undefined): VcProblem[] {
  // VC-JWT 1.1 presentations carry credentials as compact JWTs; they are checked when verified.
  if (typeof entry === 'string') {
    return COMPACT_JWT.test(entry) ? [] : [malformed('verifiableCredential entries must be credentials (objects) or compact JWTs', path)];
  }
  if (isJsonObject(entry) && typesOf(entry.type).includes(ENVELOPED_CREDENTIAL)) {
    if (version !== '2.0') return [malformed(`${ENVELOPED_CREDENTIAL} is a VCDM 2.0 construct`, path)];
    return typeof entry.id === 'string' && entry.id.startsWith('data:') ? [] : [malformed(`${ENVELOPED_CREDENTIAL} id must be a data: URL`, `${path}.id`)];
  }
  return checkCredentialShape(entry).map((p) => ({ ...p, detail: p.detail === undefined ? path : `${path}.${p.detail}` }));
}

/** Problems with a verifiable presentation's structure, including each embedded credential's. */
export function checkPresentationShape(vp: unknown): VcProblem[] {
  if (!isJsonObject(vp)) return [problem(PARSING, 'a verifiable presentation must be a JSON object')];
  const version = credentialVersion(vp);
  const problems = [...checkContext(vp, version), ...checkType(vp, 'VerifiablePresentation'), ...checkId(vp.id, 'id')];
  const holder = vp.holder;
  if (holder !== undefined && !isUrl(holder) && !(isJsonObject(holder) && isUrl(holder.id))) {
    problems.push(malformed('holder must be a URL or an object whose id is a URL', 'holder'));
  }
  const credentials = vp.verifiableCredential;
  if (credentials !== undefined) {
    asList(credentials).forEach((entry, i) => {
      const path = Array.isArray(credentials) ? `verifiableCredential[${i}]` : 'verifiableCredential';
      problems.push(...checkEmbeddedCredential(entry, path, version));
    });
  }
  return problems;
}
