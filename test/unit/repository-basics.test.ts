/**
 * Files a newcomer relies on without running them: they must not drift from the code.
 * (The Docker image is never built by the tests; these checks are static.)
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

/** Environment variable names the configuration code reads. */
function variablesReadByConfig(): string[] {
  const dir = path.join(ROOT, 'src/config');
  const names = new Set<string>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
    for (const m of readFileSync(path.join(dir, f), 'utf8').matchAll(/'((?:CREDGATE_[A-Z0-9_]+)|PORT|HOST|DATABASE_URL|LOG_LEVEL)'/g)) names.add(m[1]!);
  }
  return [...names].sort();
}

test('.env.example lists every variable of the README table and of the configuration code, all commented out', () => {
  const example = read('.env.example');
  const listed = [...example.matchAll(/^# ([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
  const readme = [...read('README.md').matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]!);
  expect([...listed].sort()).toEqual([...readme].sort());
  expect([...listed].sort()).toEqual(variablesReadByConfig());
  expect(new Set(listed).size).toBe(listed.length);
  // A copy changes nothing until a line is uncommented.
  expect(example.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'))).toEqual([]);
});

test('LICENSE is the full Apache-2.0 text that package.json names', () => {
  expect((JSON.parse(read('package.json')) as { license: string }).license).toBe('Apache-2.0');
  const license = read('LICENSE');
  for (const part of ['Apache License', 'Version 2.0, January 2004', 'TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION', '9. Accepting Warranty or Additional Liability', 'END OF TERMS AND CONDITIONS']) {
    expect(license).toContain(part);
  }
});

test('the Dockerfile builds with npm ci on node:20-slim and runs dist/main.js as a non-root user', () => {
  const lines = read('Dockerfile').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
  expect(lines.filter((l) => l.startsWith('FROM ')).every((l) => l.startsWith('FROM node:20-slim'))).toBe(true);
  expect(lines).toContain('RUN npm ci --no-audit --no-fund');
  const user = lines.findIndex((l) => l.startsWith('USER '));
  const cmd = lines.findIndex((l) => l.startsWith('CMD '));
  expect(lines[user]).not.toMatch(/USER (root|0)\b/);
  expect(user).toBeGreaterThan(lines.findLastIndex((l) => l.startsWith('FROM ')));
  expect(cmd).toBeGreaterThan(user);
  expect(lines[cmd]).toBe('CMD ["node", "dist/main.js"]');
  expect(read('.dockerignore').split('\n')).toEqual(expect.arrayContaining(['node_modules', 'dist', '.env', '.credgate']));
});

test('compose.yaml runs the service against PostgreSQL with a required master key', () => {
  const compose = read('compose.yaml');
  expect(compose).toMatch(/^\s+image: postgres:\d+/m);
  expect(compose).toMatch(/DATABASE_URL: postgres:\/\/credgate:.*@postgres:5432\/credgate/);
  expect(compose).toMatch(/CREDGATE_MASTER_KEY: \$\{CREDGATE_MASTER_KEY:\?/);
  expect(compose).toMatch(/condition: service_healthy/);
});
