import type { JsonObject, VcProblem } from '../ports';
import { asList, isJsonObject, isUrl, MALFORMED, problem } from './values';

/**
 * VCDM 2.0 members whose values are objects of a declared kind, and the language-tagged strings of
 * `name` / `description`. Structural rules only: fetching a related resource and comparing its
 * digest belongs to verification (src/vc/status), never to these checks.
 */

const malformed = (title: string, detail?: string): VcProblem => problem(MALFORMED, title, detail);

/**
 * Objects that MUST name their type (VCDM 2.0 §4.5, §5.4-§5.6; 1.1 §5.6-§5.8): `id`, when given,
 * is a URL. credentialStatus and credentialSchema have rules of their own in shape.ts.
 */
export const TYPED_MEMBERS = ['termsOfUse', 'evidence', 'refreshService'] as const;

export function checkTypedMember(doc: JsonObject, name: string): VcProblem[] {
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
    const types = asList(entry.type);
    if (entry.type === undefined || types.length === 0 || types.some((t) => typeof t !== 'string' || t === '')) {
      problems.push(malformed(`${name} entries must have a type`, `${path}.type`));
    }
    if (entry.id !== undefined && !isUrl(entry.id)) problems.push(malformed(`${name} id must be a URL`, `${path}.id`));
  });
  return problems;
}

/** SRI hash expressions (W3C SRI §3.5): `sha256|sha384|sha512` `-` standard base64, `?options` allowed; space-separated. */
const SRI_EXPRESSION = /^(sha256|sha384|sha512)-[A-Za-z0-9+/]+={0,2}(\?[\x21-\x7e]*)?$/;
const SRI_LENGTH: Readonly<Record<string, number>> = { sha256: 44, sha384: 64, sha512: 88 };

function isSri(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const tokens = value.trim().split(/\s+/);
  return (
    value.trim().length > 0 &&
    tokens.every((t) => {
      if (!SRI_EXPRESSION.test(t)) return false;
      const [alg = '', rest = ''] = t.split('-', 2);
      // The digest's base64 has the length its algorithm implies: a truncated digest matches nothing.
      return rest.replace(/\?.*$/, '').length === SRI_LENGTH[alg];
    })
  );
}

/** Multibase alphabets a digest may use (the prefix character names the encoding). */
const MULTIBASE: Readonly<Record<string, RegExp>> = {
  z: /^[1-9A-HJ-NP-Za-km-z]+$/,
  u: /^[A-Za-z0-9_-]+$/,
  m: /^[A-Za-z0-9+/]+$/,
  f: /^([0-9a-f]{2})+$/,
  F: /^([0-9A-F]{2})+$/,
  b: /^[a-z2-7]+$/,
};

function isMultibase(value: unknown): boolean {
  if (typeof value !== 'string' || value.length < 2) return false;
  const alphabet = MULTIBASE[value[0]!];
  return alphabet !== undefined && alphabet.test(value.slice(1));
}

/**
 * relatedResource (VCDM 2.0 §5.3): one or more objects, each with a URL `id` unique among them and
 * at least one of `digestSRI` (an SRI string) and `digestMultibase` (a multibase string).
 */
export function checkRelatedResources(doc: JsonObject): VcProblem[] {
  const value = doc.relatedResource;
  if (value === undefined) return [];
  const list = asList(value);
  if (list.length === 0) return [malformed('relatedResource must not be an empty list', 'relatedResource')];
  const problems: VcProblem[] = [];
  const seen = new Set<string>();
  list.forEach((entry, i) => {
    const path = Array.isArray(value) ? `relatedResource[${i}]` : 'relatedResource';
    if (!isJsonObject(entry)) {
      problems.push(malformed('relatedResource must be an object or a list of objects', path));
      return;
    }
    if (!isUrl(entry.id)) problems.push(malformed('relatedResource entries must have an id that is a URL', `${path}.id`));
    else if (seen.has(entry.id)) problems.push(malformed('relatedResource ids must be unique', `${path}.id`));
    else seen.add(entry.id);
    if (entry.digestSRI === undefined && entry.digestMultibase === undefined) {
      problems.push(malformed('relatedResource entries must have a digestSRI or a digestMultibase', path));
    }
    if (entry.digestSRI !== undefined && !asList(entry.digestSRI).every(isSri)) problems.push(malformed('relatedResource digestSRI must be an SRI hash expression', `${path}.digestSRI`));
    if (entry.digestMultibase !== undefined && !asList(entry.digestMultibase).every(isMultibase)) {
      problems.push(malformed('relatedResource digestMultibase must be a multibase string', `${path}.digestMultibase`));
    }
    if (entry.mediaType !== undefined && (typeof entry.mediaType !== 'string' || !/^[\w.+-]+\/[\w.+-]+/.test(entry.mediaType))) {
      problems.push(malformed('relatedResource mediaType must be a media type', `${path}.mediaType`));
    }
  });
  return problems;
}

const LANGUAGE_KEYS = new Set(['@value', '@language', '@direction']);
/** BCP 47 in its simple shape; JSON-LD itself only requires a well-formed tag. */
const LANGUAGE_TAG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;

/**
 * VCDM 2.0 §4.6 / §11.1: a string, or a language value object `{ @value, @language?, @direction? }`
 * (nothing else: another member would be dropped from the signed graph or refused by JSON-LD),
 * or a list of them — one per language.
 */
function checkLanguageValue(value: unknown, path: string): VcProblem[] {
  const entries = asList(value);
  if (entries.length === 0) return [malformed(`${path} must not be an empty list`, path)];
  const problems: VcProblem[] = [];
  entries.forEach((entry, i) => {
    const at = Array.isArray(value) ? `${path}[${i}]` : path;
    if (typeof entry === 'string') return;
    if (!isJsonObject(entry) || typeof entry['@value'] !== 'string') {
      problems.push(malformed(`${path} must be a string or a language value object with a string @value`, at));
      return;
    }
    const extra = Object.keys(entry).filter((k) => !LANGUAGE_KEYS.has(k));
    if (extra.length > 0) problems.push(malformed(`${path} language value objects take only @value, @language and @direction`, `${at}.${extra[0]}`));
    const language = entry['@language'];
    if (language !== undefined && (typeof language !== 'string' || !LANGUAGE_TAG.test(language))) problems.push(malformed(`${path} @language must be a BCP 47 language tag`, `${at}.@language`));
    const direction = entry['@direction'];
    if (direction !== undefined && direction !== 'ltr' && direction !== 'rtl') problems.push(malformed(`${path} @direction must be ltr or rtl`, `${at}.@direction`));
  });
  return problems;
}

/** `name` and `description` of the credential and of an issuer object. */
export function checkNamesAndDescriptions(doc: JsonObject): VcProblem[] {
  const problems: VcProblem[] = [];
  for (const member of ['name', 'description'] as const) {
    if (doc[member] !== undefined) problems.push(...checkLanguageValue(doc[member], member));
    const issuer = doc.issuer;
    if (isJsonObject(issuer) && issuer[member] !== undefined) problems.push(...checkLanguageValue(issuer[member], `issuer.${member}`));
  }
  return problems;
}
