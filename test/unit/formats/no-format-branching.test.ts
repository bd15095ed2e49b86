import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Habit 13: the VC-API and the transports look formats up in the registry (src/formats/registry.ts)
 * instead of branching on them. This scan keeps it so: no file there imports a format's own
 * module, calls a format-specific detector or verifier, or compares a value with a format, suite
 * or proof-type name.
 */
const ROOT = join(__dirname, '..', '..', '..');
const SCANNED = ['src/services/vc-api', 'src/rest', 'src/graphql', 'src/oid4vc'];

const FORMAT_NAMES = [
  'eddsa-rdfc-2022', 'eddsa-jcs-2022', 'ecdsa-rdfc-2019', 'Ed25519Signature2020', 'Ed25519Signature2018', 'EcdsaSecp256k1Signature2019',
  'DataIntegrityProof', 'EnvelopedVerifiableCredential', 'EnvelopedVerifiablePresentation',
  'vc+jwt', 'vp+jwt', 'dc+sd-jwt', 'vc+sd-jwt', 'mso_mdoc', 'jwt_vc_json', 'ldp_vc', 'family-a', 'family-b',
];
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NAME = `['"\`](?:${FORMAT_NAMES.map(escape).join('|')})['"\`]`;

const RULES: { readonly what: string; readonly pattern: RegExp }[] = [
  { what: "imports a format's own module", pattern: /from\s+'[./]*(?:vc\/proofs|vc\/jwt|formats\/(?:sd-jwt-vc|mdoc|adapters)|domain\/proofs|domain\/credentials\/family-[ab]-credential)(?:\/[^']*)?'/ },
  { what: 'calls a format-specific detector or securing function', pattern: /\b(?:isJwtCredential|isJwtPresentation|splitSdJwt|verifyProof|addProof|issueJwtCredential|verifyJwtCredential|verifyJwtPresentation|issueSdJwtVc|verifySdJwtVc|issueMdoc|verifyIssuerSigned)\s*\(/ },
  { what: 'compares with a format name', pattern: new RegExp(`(?:===|!==|case)\\s*${NAME}|${NAME}\\s*(?:===|!==)`) },
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Each offending line, as `file:line: rule`. */
function violations(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => RULES.filter((r) => r.pattern.test(line)).map((r) => `${file}:${i + 1}: ${r.what}: ${line.trim()}`));
}

describe('no format branching outside the registry', () => {
  it('recognises each kind of branching it forbids', () => {
    expect(violations('x.ts', "import { verifyProof } from '../../vc/proofs';")).toHaveLength(1);
    expect(violations('x.ts', 'const r = await verifyProof(vc, options);')).toHaveLength(1);
    expect(violations('x.ts', 'if (typeof vc === "string" || isJwtCredential(vc)) {')).toHaveLength(1);
    expect(violations('x.ts', "if (issuer.cryptosuite === 'vc+jwt') {")).toHaveLength(1);
    expect(violations('x.ts', "case 'mso_mdoc':")).toHaveLength(1);
    expect(violations('x.ts', "const f = formats.detect(vc); // e.g. 'vc+jwt'")).toEqual([]);
  });

  it.each(SCANNED)('%s looks formats up instead of branching on them', (dir) => {
    const found = filesUnder(join(ROOT, dir)).flatMap((file) => violations(relative(ROOT, file), readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });
});
