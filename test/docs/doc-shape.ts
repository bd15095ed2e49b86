/**
 * Shown output against real output, by shape: every key the document shows must be there with a
 * value of the same JSON type (objects and arrays recursively); values themselves (ids, dates,
 * keys, signatures) differ from run to run and are not compared, except true and false, which
 * state what the example shows (`"verified": true`). The real answer may have more
 * keys than the document shows (documents elide). A real array's element i has the shape of the shown
 * element i (the last shown one for the rest); a shown non-empty array needs a non-empty real one.
 */
type Kind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

const kindOf = (v: unknown): Kind => (v === null ? 'null' : Array.isArray(v) ? 'array' : (typeof v as Kind));

export function shapeProblems(shown: unknown, real: unknown, path = '$'): string[] {
  const want = kindOf(shown);
  const got = kindOf(real);
  if (want !== got) return [`${path}: the document shows ${want === 'string' || want === 'number' || want === 'boolean' ? `a ${want} (${JSON.stringify(shown)})` : want}, the service answered ${got === 'string' || got === 'number' || got === 'boolean' ? `a ${got} (${JSON.stringify(real)})` : got}`];
  // A shown true or false is the example's point (verified: true), not a value of the run.
  if (want === 'boolean' && shown !== real) return [`${path}: the document shows ${String(shown)}, the service answered ${String(real)}`];
  if (want === 'array') {
    const s = shown as unknown[];
    const r = real as unknown[];
    if (s.length === 0) return [];
    if (r.length === 0) return [`${path}: the document shows elements, the service answered an empty array`];
    return r.flatMap((el, i) => shapeProblems(s[Math.min(i, s.length - 1)], el, `${path}[${i}]`));
  }
  if (want === 'object') {
    const s = shown as Record<string, unknown>;
    const r = real as Record<string, unknown>;
    return Object.keys(s).flatMap((k) => (k in r ? shapeProblems(s[k], r[k], `${path}.${k}`) : [`${path}: the document shows "${k}", the service's answer has no such member`]));
  }
  return [];
}

/**
 * The last JSON value a command printed: jq and curl print it last, pretty or on one line, after
 * whatever else the block echoed. Undefined when the output ends in no JSON.
 */
export function lastJson(output: string): { value: unknown } | undefined {
  const lines = output.replace(/\s+$/, '').split('\n');
  for (let k = lines.length - 1; k >= 0; k--) {
    if (!/^\s*[[{"0-9tfn-]/.test(lines[k]!)) continue;
    try {
      return { value: JSON.parse(lines.slice(k).join('\n')) as unknown };
    } catch {
      // not the start of the last JSON value: look further up
    }
  }
  return undefined;
}
