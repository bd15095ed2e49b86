/**
 * The repository must be self-contained: a fresh clone has no sibling `shared` folder, so no test
 * or benchmark may read from outside the repository. The vectors and photos the tests use are
 * copied into test/fixtures (with their sources in SOURCES.md).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES_DIR, readSharedJson, sharedPath } from '../support/shared';

const ROOT = path.resolve(__dirname, '../..');
const SELF = path.resolve(__filename);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'fixtures' && name !== 'node_modules') out.push(...sourceFiles(p));
    } else if (/\.(c|m)?(t|j)s$/.test(name) && path.resolve(p) !== SELF) {
      out.push(p);
    }
  }
  return out;
}

// Spelled in pieces so this file does not match its own patterns.
const SHARED = 'shared';
const OUTSIDE = [
  new RegExp(`\\.\\./${SHARED}\\b`),
  new RegExp(`['"]\\.\\.['"]\\s*,\\s*['"]${SHARED}['"]`),
  new RegExp(`${SHARED.toUpperCase()}_DIR`),
  /\/work\//,
];

describe('self-contained repository', () => {
  it('no test, benchmark or script file reads from the sibling shared folder or outside the repository', () => {
    const offenders = ['test', 'bench', 'scripts']
      .map((d) => path.join(ROOT, d))
      .filter((d) => existsSync(d))
      .flatMap(sourceFiles)
      .flatMap((file) => {
        const lines = readFileSync(file, 'utf8').split('\n');
        return lines.flatMap((line, i) => (OUTSIDE.some((re) => re.test(line)) ? [`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : []));
      });
    expect(offenders).toEqual([]);
  });

  it('the fixture helpers resolve inside the repository', () => {
    expect(path.relative(ROOT, FIXTURES_DIR).startsWith('..')).toBe(false);
    expect(path.relative(ROOT, sharedPath('vectors', 'did-key')).startsWith('..')).toBe(false);
    expect(Object.keys(readSharedJson<Record<string, unknown>>('vectors', 'did-key', 'secp256k1.json')).length).toBeGreaterThan(0);
  });

  it('every copied fixture folder notes its sources', () => {
    for (const dir of ['vectors', 'faces']) {
      const notes = readFileSync(path.join(FIXTURES_DIR, dir, 'SOURCES.md'), 'utf8');
      const files = readdirSync(path.join(FIXTURES_DIR, dir)).filter((f) => f !== 'SOURCES.md');
      expect(files.length).toBeGreaterThan(0);
      // Each top-level file or folder is named in the notes.
      for (const f of files) expect(notes).toContain(f);
    }
  });

  it('ships only the photos the tests use (the folder stays small)', () => {
    const faces = path.join(FIXTURES_DIR, 'faces');
    const photos = readdirSync(faces).filter((f) => f.endsWith('.jpg'));
    const testText = sourceFiles(path.join(ROOT, 'test')).map((f) => readFileSync(f, 'utf8')).join('\n');
    for (const p of photos) expect(testText.includes(p) || testText.includes(`'${p.replace(/\.jpg$/, '')}'`)).toBe(true);
    const bytes = photos.reduce((n, p) => n + statSync(path.join(faces, p)).size, 0);
    expect(bytes).toBeLessThan(3 * 1024 * 1024);
  });
});
