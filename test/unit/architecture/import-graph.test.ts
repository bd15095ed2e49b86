/**
 * A house without knots (issue 20): the import graph of src/ has no circle, every arrow between
 * rooms runs down the floors docs/ARCHITECTURE.md draws ("Floors and arrows", read from the doc, so
 * the doc and this test cannot disagree), ports do not import their implementations, and
 * configuration imports nothing but Node. The graph is madge's, with `import type` and lazy
 * `import()` counted: a knot of types is still a knot. src/generated (Prisma's client) is left out.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import madge from 'madge';
import { type Floor, type ImportGraph, homeless, parseFloors, portsImportingImplementations, specifiers, upwardArrows } from './import-graph';

const ROOT = path.resolve(__dirname, '../../..');
const SRC = path.join(ROOT, 'src');
const floors = parseFloors(readFileSync(path.join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8'));

async function graphOf(dir: string): Promise<{ graph: ImportGraph; circular: string[][] }> {
  const result = await madge(dir, {
    fileExtensions: ['ts'],
    tsConfig: path.join(ROOT, 'tsconfig.json'),
    excludeRegExp: [/(^|\/)generated\/prisma\//],
    detectiveOptions: { ts: { skipTypeImports: false, skipAsyncImports: false } },
  });
  return { graph: result.obj(), circular: result.circular() };
}

let src: { graph: ImportGraph; circular: string[][] };
beforeAll(async () => {
  src = await graphOf(SRC);
});

describe('the floor table of docs/ARCHITECTURE.md', () => {
  test('numbers its floors 1..n from the top and names each room once', () => {
    expect(floors.length).toBeGreaterThan(10);
    expect(floors.map((f) => f.floor)).toEqual(floors.map((_, i) => i + 1));
    const rooms = floors.flatMap((f) => f.rooms);
    expect(new Set(rooms).size).toBe(rooms.length);
  });

  test('places every module of src/ in a room, and names no room src/ does not have', () => {
    expect(Object.keys(src.graph).length).toBeGreaterThan(300);
    expect(homeless(src.graph, floors)).toEqual([]);
    const missing = floors.flatMap((f) => f.rooms).filter((room) => !Object.keys(src.graph).some((m) => m === `${room}.ts` || m.startsWith(`${room}/`)));
    expect(missing).toEqual([]);
  });
});

describe('src/', () => {
  test('has no import circle', () => {
    expect(src.circular.map((c) => c.join(' -> '))).toEqual([]);
  });

  test('every arrow between rooms runs down the floors', () => {
    expect(upwardArrows(src.graph, floors)).toEqual([]);
  });

  test('ports import no implementation beside them', () => {
    expect(portsImportingImplementations(src.graph)).toEqual([]);
  });

  test('configuration (src/config) imports nothing but Node and itself', () => {
    const dir = path.join(SRC, 'config');
    const outside = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => specifiers(readFileSync(path.join(dir, f), 'utf8')).map((s) => `config/${f} -> ${s}`))
      .filter((edge) => !/ -> (node:|\.\/)/.test(edge));
    expect(outside).toEqual([]);
  });
});

describe('the rules fail when broken', () => {
  const table: Floor[] = [
    { floor: 1, rooms: ['app'] },
    { floor: 2, rooms: ['services', 'rest'] },
    { floor: 3, rooms: ['ledger', 'db/repositories'] },
    { floor: 4, rooms: ['db', 'config'] },
  ];

  test('an import up a floor, or across one floor, is reported; down is not', () => {
    const graph: ImportGraph = {
      'app.ts': ['services/a.ts'],
      'services/a.ts': ['db/repositories/r.ts', 'rest/x.ts'],
      'db/repositories/r.ts': ['services/a.ts', 'db/database.ts'],
      'db/database.ts': ['config/index.ts'],
      'config/index.ts': ['db/database.ts'],
      'rest/x.ts': [],
    };
    expect(upwardArrows(graph, table)).toEqual([
      'config/index.ts -> db/database.ts (config, floor 4 -> db, floor 4)',
      'db/database.ts -> config/index.ts (db, floor 4 -> config, floor 4)',
      'db/repositories/r.ts -> services/a.ts (db/repositories, floor 3 -> services, floor 2)',
      'services/a.ts -> rest/x.ts (services, floor 2 -> rest, floor 2)',
    ]);
  });

  test('a module outside every room is reported', () => {
    expect(homeless({ 'app.ts': [], 'newroom/x.ts': [] }, table)).toEqual(['newroom/x.ts']);
  });

  test('a port importing a module beside it is reported; other ports and modules elsewhere are not', () => {
    const graph: ImportGraph = {
      'ledger/ledger.port.ts': ['ledger/log-heads.ts', 'ledger/other.port.ts', 'db/database.ts'],
      'domain/ports.ts': ['domain/tenancy/actor.ts'],
      'ledger/log-heads.ts': ['ledger/ledger.port.ts'],
    };
    expect(portsImportingImplementations(graph)).toEqual(['ledger/ledger.port.ts -> ledger/log-heads.ts']);
  });

  test('the specifier scan sees static, type, side-effect and lazy imports', () => {
    const source = "import a from 'pino';\nimport type { B } from '../b';\nimport './c';\nconst d = await import('../d.js');\nexport { e } from './e';\n";
    expect(specifiers(source)).toEqual(['pino', '../b', './c', '../d.js', './e']);
  });

  test('madge, as configured here, finds a circle made of a type import and a lazy import', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'credgate-knot-'));
    try {
      writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b';\nexport type A = B;\n");
      writeFileSync(path.join(dir, 'b.ts'), "export interface B { readonly n: number }\nexport const load = () => import('./a');\n");
      writeFileSync(path.join(dir, 'c.ts'), "import type { A } from './a';\nexport type C = A;\n");
      const { circular, graph } = await graphOf(dir);
      expect(graph).toEqual({ 'a.ts': ['b.ts'], 'b.ts': ['a.ts'], 'c.ts': ['a.ts'] });
      expect(circular).toEqual([['a.ts', 'b.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
