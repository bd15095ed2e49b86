/**
 * Runs a document's examples (doc-blocks.ts) in one bash session and reports every way they
 * drifted from the service: a command that failed, a curl call answered with an error status the
 * document does not announce, an answer whose shape is not the one shown.
 *
 * curl is the real curl; a shell function of the same name only adds `-w` so each call's status
 * reaches the test on stderr. SDK blocks run with node from the repository root.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import type { DocBlock, Expectation, ParsedDoc } from './doc-blocks';
import { lastJson, shapeProblems } from './doc-shape';

export interface SessionOptions {
  readonly root: string;
  readonly env: NodeJS.ProcessEnv;
  /**
   * Variables the test provides (a running server's URL, API keys): an assignment of one of them in
   * a block (`BASE=http://localhost:4000`, `export KEY=cg_…`) keeps the test's value instead.
   */
  readonly provided?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

const PRELUDE = `
__doc_mark() { printf '\\n@@doc-mark %s\\n' "$1"; printf '\\n@@doc-mark %s\\n' "$1" >&2; }
curl() { command curl -w '%{stderr}\\n@@doc-http %{http_code}\\n' "$@"; }
`;

/** `import { x } from '@credgate/sdk'` names the package built from this checkout's dist/sdk. */
function sdkBlockScript(block: DocBlock, root: string): string {
  const sdk = path.join(root, 'dist/sdk');
  if (block.lang === 'js') return block.code.replace(/(['"])@credgate\/sdk\1/g, JSON.stringify(sdk));
  const lines = block.code.split('\n');
  const imports = lines.filter((l) => /^import\s/.test(l)).map((l) => l.replace(/(['"])@credgate\/sdk\1/g, JSON.stringify(sdk)));
  const body = lines.filter((l) => !/^import\s/.test(l));
  const source = `${imports.join('\n')}\n(async () => {\n${body.join('\n')}\n})().catch((e) => { console.error(e); process.exit(1); });\n`;
  return ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText;
}

function withProvided(code: string, provided: Readonly<Record<string, string>>): string {
  return code
    .split('\n')
    .map((l) => {
      const m = /^(\s*)(export\s+)?([A-Z_][A-Z0-9_]*)=\S*(\s+#.*)?$/.exec(l);
      return m && provided[m[3]!] !== undefined ? `${m[1]}${m[2] ?? ''}${m[3]}="$${m[3]}"   # provided by the test` : l;
    })
    .join('\n');
}

function script(doc: ParsedDoc, options: SessionOptions, scratch: string): string {
  const parts = [PRELUDE];
  doc.runnable.forEach((block, i) => {
    if (block.lang === 'sh') {
      block.segments.forEach((seg, j) => {
        parts.push(`__doc_mark b${i}.${j}`);
        parts.push(options.provided ? withProvided(seg.code, options.provided) : seg.code);
      });
      return;
    }
    const file = path.join(scratch, `b${i}.js`);
    writeFileSync(file, sdkBlockScript(block, options.root));
    parts.push(`__doc_mark b${i}.0`);
    parts.push(`(cd ${JSON.stringify(options.root)} && node -e "$(cat ${JSON.stringify(file)})")`);
  });
  parts.push('__doc_mark end');
  return parts.join('\n');
}

/** Text after each mark, by mark. */
function bySegment(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const pieces = text.split(/\n?@@doc-mark (\S+)\n/);
  for (let k = 1; k < pieces.length; k += 2) out.set(pieces[k]!, pieces[k + 1] ?? '');
  return out;
}

function run(source: string, options: SessionOptions): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // A process group of its own, so whatever the document left running (a server it started) stops with it.
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', source], { cwd: options.root, env: options.env, detached: true });
    let stdout = '';
    let stderr = '';
    const stopAll = (signal: NodeJS.Signals): void => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // the group is gone
      }
    };
    const timer = setTimeout(() => stopAll('SIGKILL'), options.timeoutMs);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => {
      clearTimeout(timer);
      stopAll('SIGTERM');
      resolve({ code, stdout, stderr });
    });
  });
}

const tail = (s: string, n = 30): string => s.trimEnd().split('\n').slice(-n).join('\n');

function compare(name: string, expect: Expectation, output: string): string[] {
  const found = lastJson(output);
  if (!found) return [`${name}:${expect.line}: the document shows output here, the commands printed no JSON:\n${tail(output)}`];
  return shapeProblems(expect.shape, found.value).map((p) => `${name}:${expect.line}: ${p}`);
}

/** Every drift of the document's examples; empty when they run as written. */
export async function runDocExamples(name: string, doc: ParsedDoc, options: SessionOptions): Promise<string[]> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'credgate-doc-'));
  try {
    const result = await run(script(doc, options, scratch), options);
    const out = bySegment(result.stdout);
    const err = bySegment(result.stderr);
    const failures: string[] = [];
    doc.runnable.forEach((block, i) => {
      const marks = block.segments.map((_, j) => `b${i}.${j}`);
      if (!marks.some((m) => out.has(m))) return;
      const blockOut = marks.map((m) => out.get(m) ?? '').join('\n');
      const blockErr = marks.map((m) => err.get(m) ?? '').join('\n');
      const statuses = [...blockErr.matchAll(/@@doc-http (\d{3})/g)].map((m) => Number(m[1]));
      const refused = statuses.filter((s) => s >= 400 && !block.expectStatus.includes(s));
      if (refused.length > 0) failures.push(`${name}:${block.line}: curl answered ${refused.join(', ')}:\n${tail(blockOut)}`);
      for (const s of block.expectStatus) if (!statuses.includes(s)) failures.push(`${name}:${block.line}: the block is marked expect-status ${s}, no call answered it`);
      block.segments.forEach((seg, j) => {
        if (seg.expect) failures.push(...compare(name, seg.expect, out.get(marks[j]!) ?? ''));
      });
      if (block.output) failures.push(...compare(name, block.output, blockOut));
    });
    if (result.code !== 0 || !out.has('end')) {
      const reached = [...out.keys()].filter((k) => k !== 'end').pop();
      const index = reached ? Number(/^b(\d+)/.exec(reached)![1]) : -1;
      const where = index >= 0 ? `${name}:${doc.runnable[index]!.line}` : name;
      failures.push(`${where}: the example failed (exit ${result.code}):\n${tail(out.get(reached ?? '') ?? result.stdout)}\n--- stderr\n${tail((err.get(reached ?? '') ?? result.stderr).replace(/\n?@@doc-http \d{3}/g, ''))}`);
    }
    return failures;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
