import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The published test vectors (`vectors/…`) and face photos (`faces/…`) the tests use, copied into
 * the repository so a fresh clone tests without anything beside it. Sources and licences are in
 * each folder's SOURCES.md. The helper names keep their historical "shared" spelling.
 */
export const FIXTURES_DIR = path.resolve(__dirname, '..', 'fixtures');

export function sharedPath(...parts: string[]): string {
  const p = path.resolve(FIXTURES_DIR, ...parts);
  // A fixture path is always inside the fixtures folder, never beside the repository.
  if (path.relative(FIXTURES_DIR, p).startsWith('..')) throw new Error(`fixture path outside test/fixtures: ${parts.join('/')}`);
  return p;
}

export function readSharedJson<T = unknown>(...parts: string[]): T {
  return JSON.parse(readFileSync(sharedPath(...parts), 'utf8')) as T;
}

export function readSharedText(...parts: string[]): string {
  return readFileSync(sharedPath(...parts), 'utf8');
}
