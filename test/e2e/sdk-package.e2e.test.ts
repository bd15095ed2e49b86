/**
 * The installable SDK as a user meets it: `npm pack` the package, install the tarball into an
 * empty project, type-check the README's example under each TypeScript moduleResolution, then run
 * it (compiled as CommonJS and as ESM) against a live server and read its output.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { useTestServer } from '../support/harness';

const root = path.resolve(__dirname, '../..');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const server = useTestServer();
let work: string;

function readmeExample(): string {
  const readme = readFileSync(path.join(root, 'packages/sdk/README.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(readme);
  if (!block?.[1]) throw new Error('packages/sdk/README.md has no ```ts example');
  return block[1];
}

function typecheck(dir: string, files: string[], compilerOptions: Record<string, unknown>, outDir?: string): string {
  const config = path.join(dir, `tsconfig.${String(compilerOptions.moduleResolution)}-${files.join('-')}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: { target: 'ES2022', strict: true, skipLibCheck: false, types: ['node'], ...compilerOptions, ...(outDir ? { outDir } : { noEmit: true }) },
      files,
    }),
  );
  try {
    return execFileSync(process.execPath, [tsc, '-p', config], { cwd: dir, encoding: 'utf8' });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    throw new Error(`tsc (${String(compilerOptions.moduleResolution)}) failed:\n${err.stdout ?? ''}${err.stderr ?? ''}`);
  }
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'credgate-sdk-'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', path.join(root, 'packages/sdk'), '--pack-destination', work, '--json', '--silent'], { cwd: root, encoding: 'utf8' }),
  ) as { filename: string; files: { path: string }[] }[];
  expect(packed[0]?.files.map((f) => f.path)).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'README.md', 'package.json']));

  // "npm install <tarball>" without the network: unpack it where npm would, and link the one
  // dependency (graphql) and the Node typings from this repository.
  const modules = path.join(work, 'app', 'node_modules');
  mkdirSync(path.join(modules, '@credgate'), { recursive: true });
  execFileSync('tar', ['-xzf', path.join(work, packed[0]!.filename), '-C', path.join(modules, '@credgate')]);
  renameSync(path.join(modules, '@credgate', 'package'), path.join(modules, '@credgate', 'sdk'));
  symlinkSync(path.join(root, 'node_modules', 'graphql'), path.join(modules, 'graphql'));
  symlinkSync(path.join(root, 'node_modules', '@types'), path.join(modules, '@types'));
  writeFileSync(path.join(work, 'app', 'example.ts'), readmeExample());
  writeFileSync(path.join(work, 'app', 'example.mts'), readmeExample());
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed SDK', () => {
  // The two runs below compile (and so type-check) under node10 and nodenext; these cover the rest.
  test.each([
    ['node16, from a CommonJS and an ES module file', { module: 'node16', moduleResolution: 'node16' }, ['example.ts', 'example.mts']],
    ['bundler', { module: 'esnext', moduleResolution: 'bundler' }, ['example.ts']],
  ])('its types resolve under moduleResolution %s', (_name, options, files) => {
    expect(typecheck(path.join(work, 'app'), files, options)).toBe('');
  });

  test('a misuse is a type error (the types are real, not any)', () => {
    const app = path.join(work, 'app');
    writeFileSync(path.join(app, 'wrong.ts'), "import { createCredgateClient } from '@credgate/sdk';\nvoid createCredgateClient({ url: 'x' }).createDid({ input: { method: 1 } });\n");
    expect(() => typecheck(app, ['wrong.ts'], { module: 'node16', moduleResolution: 'node16', skipLibCheck: true })).toThrow(/wrong\.ts\(2,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/);
  });

  test.each([
    ['node10, loaded with require', 'example.ts', { module: 'commonjs', moduleResolution: 'node10', ignoreDeprecations: '5.0' }, 'example.js'],
    ['nodenext, loaded with import', 'example.mts', { module: 'nodenext', moduleResolution: 'nodenext' }, 'example.mjs'],
  ])('the README example type-checks under %s, then issues and verifies a credential', async (_name, file, options, output) => {
    const app = path.join(work, 'app');
    const outDir = path.join(app, `out-${output.replace('.', '-')}`);
    expect(typecheck(app, [file], options, outDir)).toBe('');
    expect(readdirSync(outDir)).toContain(output);
    const apiKey = await server.apiKey('sdk-readme', ['issuer', 'verifier']);
    // Asynchronously: the test server answers from this same process.
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(outDir, output)], {
      cwd: app,
      env: { ...process.env, CREDGATE_URL: server.baseUrl, CREDGATE_API_KEY: apiKey },
    });
    const result = JSON.parse(stdout.trim()) as { issuer: string; verified: boolean };
    expect(result.issuer).toMatch(/^did:credgate:/);
    expect(result.verified).toBe(true);
  });
});
