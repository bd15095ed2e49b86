import { readFileSync } from 'node:fs';
import path from 'node:path';

/** `../shared` next to the project root, as CI lays it out. */
export const SHARED_DIR = path.resolve(__dirname, '../../../shared');

export function sharedPath(...parts: string[]): string {
  return path.join(SHARED_DIR, ...parts);
}

export function readSharedJson<T = unknown>(...parts: string[]): T {
  return JSON.parse(readFileSync(sharedPath(...parts), 'utf8')) as T;
}

export function readSharedText(...parts: string[]): string {
  return readFileSync(sharedPath(...parts), 'utf8');
}
