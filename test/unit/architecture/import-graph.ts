/**
 * The rules docs/ARCHITECTURE.md "Floors and arrows" states, as pure functions over an import
 * graph (module -> the modules it imports, paths relative to src/), so the test can apply them to
 * the real graph and show on small graphs that each rule fails when broken.
 */

/** One row of the floor table: its number (1 = top) and the rooms on it. */
export interface Floor {
  readonly floor: number;
  readonly rooms: readonly string[];
}

export type ImportGraph = Readonly<Record<string, readonly string[]>>;

/** The floor table of docs/ARCHITECTURE.md: the rows under "## Floors and arrows", rooms in backticks. */
export function parseFloors(markdown: string): Floor[] {
  const start = markdown.indexOf('\n## Floors and arrows');
  if (start < 0) return [];
  const next = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)].map((m) => ({
    floor: Number(m[1]),
    rooms: [...m[2]!.matchAll(/`([^`]+)`/g)].map((r) => r[1]!),
  }));
}

/**
 * The room of a module: the longest room name that is its path's folder prefix, or the name of a
 * top-level file (`main` for main.ts; `cli` holds cli.ts and cli/).
 */
export function roomOf(module: string, rooms: readonly string[]): string | undefined {
  const bare = module.replace(/\.ts$/, '');
  let best: string | undefined;
  for (const room of rooms) {
    if ((bare === room || bare.startsWith(`${room}/`)) && (best === undefined || room.length > best.length)) best = room;
  }
  return best;
}

/** Every import between two rooms that does not run down to a higher-numbered floor. */
export function upwardArrows(graph: ImportGraph, floors: readonly Floor[]): string[] {
  const floorOf = new Map(floors.flatMap((f) => f.rooms.map((r): [string, number] => [r, f.floor])));
  const rooms = [...floorOf.keys()];
  const found: string[] = [];
  for (const [from, deps] of Object.entries(graph)) {
    const a = roomOf(from, rooms);
    for (const to of deps) {
      const b = roomOf(to, rooms);
      if (a === undefined || b === undefined || a === b) continue;
      if (floorOf.get(b)! <= floorOf.get(a)!) found.push(`${from} -> ${to} (${a}, floor ${floorOf.get(a)} -> ${b}, floor ${floorOf.get(b)})`);
    }
  }
  return found.sort();
}

/** Modules no room of the table holds. */
export function homeless(graph: ImportGraph, floors: readonly Floor[]): string[] {
  const rooms = floors.flatMap((f) => f.rooms);
  return Object.keys(graph).filter((m) => roomOf(m, rooms) === undefined).sort();
}

/** A port module: `*.port.ts`, or `ports.ts`. */
export const isPort = (module: string): boolean => /(^|\/)(ports|[\w-]+\.port)\.ts$/.test(module);

const folderOf = (module: string): string => module.slice(0, Math.max(0, module.lastIndexOf('/')));

/**
 * Imports of a port from its own folder that are not ports themselves. A port's implementations sit
 * beside it (ledger/pg-ledger.ts beside ledger/ledger.port.ts), so that is where a port would reach
 * into them; what a port needs from elsewhere lives below it.
 */
export function portsImportingImplementations(graph: ImportGraph): string[] {
  const found: string[] = [];
  for (const [from, deps] of Object.entries(graph)) {
    if (!isPort(from)) continue;
    for (const to of deps) if (folderOf(to) === folderOf(from) && !isPort(to)) found.push(`${from} -> ${to}`);
  }
  return found.sort();
}

/** Import specifiers in a TypeScript source: `from '…'`, `import '…'`, `import('…')`, `require('…')`. */
export function specifiers(source: string): string[] {
  return [...source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}
