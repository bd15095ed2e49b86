import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { printGraphqlSchema } from '../../src/graphql/build-schema';

const ROOT = path.resolve(__dirname, '../..');

describe('generated files are up to date', () => {
  test('schema.graphql matches the schema the resolvers build (run `npm run build`)', () => {
    expect(readFileSync(path.join(ROOT, 'schema.graphql'), 'utf8')).toBe(printGraphqlSchema());
  });

  test('the SDK matches codegen over schema.graphql and src/sdk/operations (run `npm run codegen`)', () => {
    // Same codegen.yml, redirected to a scratch file, so the check runs exactly what developers run.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'credgate-codegen-'));
    try {
      const out = path.join(dir, 'generated.ts');
      const config = readFileSync(path.join(ROOT, 'codegen.yml'), 'utf8').replace('src/sdk/generated.ts:', `${out}:`);
      expect(config).toContain(out);
      writeFileSync(path.join(dir, 'codegen.yml'), config);
      execFileSync(process.execPath, [path.join(ROOT, 'node_modules/@graphql-codegen/cli/cjs/bin.js'), '--config', path.join(dir, 'codegen.yml'), '--silent'], {
        cwd: ROOT,
        stdio: 'pipe',
      });
      expect(readFileSync(path.join(ROOT, 'src/sdk/generated.ts'), 'utf8')).toBe(readFileSync(out, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
