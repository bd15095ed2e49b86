import type { FieldIssue } from '../../errors';

/** `Name` or `Name:3` → its parts (the reference was validated when the schema was created). */
function splitRef(ref: string): { name: string; version: string | undefined } {
  const i = ref.indexOf(':');
  return i < 0 ? { name: ref, version: undefined } : { name: ref.slice(0, i), version: ref.slice(i + 1) };
}

/**
 * Pairs a schema's declared `dependantSchemas` (`Name` = any version, `Name:n` = exactly n) with
 * the schema versions (`Name:n`) of the dependant credentials presented at issuance: each
 * declared schema needs exactly one credential and each credential must answer a declared schema.
 * Exact references are paired first so `Name:2` is never consumed by a bare `Name`.
 */
export function pairDependants(declared: readonly string[], presented: readonly string[]): FieldIssue[] {
  const used = new Set<number>();
  const issues: FieldIssue[] = [];
  presented.forEach((version, i) => {
    const { name } = splitRef(version);
    let at = declared.findIndex((ref, j) => !used.has(j) && ref === version);
    if (at < 0) at = declared.findIndex((ref, j) => !used.has(j) && splitRef(ref).version === undefined && splitRef(ref).name === name);
    if (at < 0) issues.push({ field: `dependantVerifiableCredential[${i}]`, message: `schema ${version} is not a dependant schema of this schema (or is already answered)` });
    else used.add(at);
  });
  declared.forEach((ref, j) => {
    if (!used.has(j)) issues.push({ field: 'dependantVerifiableCredential', message: `a credential of dependant schema ${ref} is required` });
  });
  return issues;
}
