/**
 * The examples of a Markdown document, as docs-run.test.ts runs them. The convention (stated for
 * writers in docs/API.md, "Examples that run"):
 *
 *   ```sh / ```bash   run by bash, every block of a document in one session, in order, so a later
 *                     block uses what an earlier one exported or assigned;
 *   ```js             an SDK example, CommonJS, run by node from the repository root;
 *   ```ts             an SDK example, TypeScript (transpiled only), `@credgate/sdk` is this build's
 *                     dist/sdk; top-level await is allowed;
 *   ```json           right after a runnable block (blank lines between, or `<!-- output -->` just
 *                     before it): the shape of that block's last JSON output;
 *   `# -> <JSON>`     a line inside a shell block: the shape of the last JSON the lines above it
 *                     (since the block's start or the previous `# ->`) printed.
 *
 * Shapes are compared by keys and types, not values (see doc-shape.ts). An HTML comment just before
 * a block (blank lines allowed) qualifies it:
 *
 *   <!-- not-run: reason -->        the block is not run (the reason is required);
 *   <!-- expect-status: 400 -->     the HTTP statuses >= 400 this block's curl calls answer (each
 *                                   listed one must occur; any other status >= 400 fails the block).
 *
 * Any other fenced block that holds a curl call or an SDK client is an error unless marked
 * not-run: nothing that looks like an example escapes the run unnoticed.
 */
export type RunLang = 'sh' | 'js' | 'ts';

export interface Expectation {
  /** 1-based line of the shown output in the document. */
  readonly line: number;
  readonly shape: unknown;
}

export interface DocBlock {
  readonly line: number;
  readonly lang: RunLang;
  readonly code: string;
  readonly expectStatus: readonly number[];
  /** Shapes shown inside the block (`# -> ...`), in order: the code is split at each. */
  readonly segments: readonly { readonly code: string; readonly expect?: Expectation }[];
  /** The shape shown after the block (a json fence). */
  readonly output?: Expectation;
}

export interface SkippedBlock {
  readonly line: number;
  readonly lang: string;
  readonly reason: string;
}

export interface ParsedDoc {
  readonly runnable: DocBlock[];
  readonly skipped: SkippedBlock[];
  /** Problems with the document's examples themselves (unmarked unrunnable blocks, bad shapes). */
  readonly problems: string[];
}

interface Fence {
  readonly line: number;
  readonly info: string;
  readonly body: string[];
  /** The comments between the previous fence (or text) and this one. */
  readonly marks: string[];
  /** Only blank lines and comments separate it from the previous fence. */
  readonly adjacent: boolean;
}

const RUN_LANGS: Readonly<Record<string, RunLang>> = { sh: 'sh', bash: 'sh', shell: 'sh', js: 'js', javascript: 'js', ts: 'ts', typescript: 'ts' };
const LOOKS_RUNNABLE = /\bcurl\s|createCredgateClient|\bsdk\.[a-z]\w*\(/;
const ARROW = /^\s*# -> (.*)$/;

function fences(markdown: string): Fence[] {
  const lines = markdown.split('\n');
  const out: Fence[] = [];
  let marks: string[] = [];
  let adjacent = false;
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i]!);
    if (open) {
      const indent = open[1]!.length;
      const body: string[] = [];
      let j = i + 1;
      while (j < lines.length && !/^\s*```\s*$/.test(lines[j]!)) body.push(lines[j++]!.slice(indent));
      out.push({ line: i + 1, info: open[2]!.toLowerCase(), body, marks, adjacent });
      marks = [];
      adjacent = true;
      i = j;
      continue;
    }
    const line = lines[i]!.trim();
    const comment = /^<!--\s*(.*?)\s*-->$/.exec(line);
    if (comment) marks.push(comment[1]!);
    else if (line !== '') {
      marks = [];
      adjacent = false;
    }
  }
  return out;
}

function parseJson(text: string, where: string, problems: string[]): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    problems.push(`${where}: the shown output is not JSON (${(e as Error).message}); write it as JSON, with "…" for elided values`);
    return undefined;
  }
}

export function parseDoc(markdown: string, name: string): ParsedDoc {
  const runnable: DocBlock[] = [];
  const skipped: SkippedBlock[] = [];
  const problems: string[] = [];
  let previous: DocBlock | undefined;
  for (const f of fences(markdown)) {
    const where = `${name}:${f.line}`;
    const notRun = f.marks.map((m) => /^not-run:\s*(.*)$/.exec(m)).find((m) => m !== null);
    const statusMark = f.marks.map((m) => /^expect-status:\s*(.*)$/.exec(m)).find((m) => m !== null);
    const isOutput = f.info === 'json' && previous !== undefined && (f.adjacent || f.marks.includes('output'));
    if (notRun) {
      if (notRun[1]!.trim() === '') problems.push(`${where}: <!-- not-run: --> needs a reason`);
      skipped.push({ line: f.line, lang: f.info, reason: notRun[1]! });
      previous = undefined;
      continue;
    }
    if (isOutput && previous) {
      const index = runnable.indexOf(previous);
      runnable[index] = { ...previous, output: { line: f.line, shape: parseJson(f.body.join('\n'), where, problems) } };
      previous = undefined;
      continue;
    }
    const lang = RUN_LANGS[f.info];
    if (!lang) {
      if (LOOKS_RUNNABLE.test(f.body.join('\n'))) problems.push(`${where}: a \`\`\`${f.info || '(no language)'} block with an example the test cannot run: label it sh, bash, js or ts, or mark it <!-- not-run: reason -->`);
      previous = undefined;
      continue;
    }
    const expectStatus = statusMark ? statusMark[1]!.split(/[\s,]+/).filter(Boolean).map(Number) : [];
    if (expectStatus.some((s) => !Number.isInteger(s) || s < 400 || s > 599)) problems.push(`${where}: expect-status lists HTTP error statuses (400-599)`);
    const segments: { code: string; expect?: Expectation }[] = [];
    let current: string[] = [];
    f.body.forEach((l, k) => {
      const arrow = lang === 'sh' ? ARROW.exec(l) : null;
      if (!arrow) return void current.push(l);
      segments.push({ code: current.join('\n'), expect: { line: f.line + 1 + k, shape: parseJson(arrow[1]!, `${name}:${f.line + 1 + k}`, problems) } });
      current = [];
    });
    segments.push({ code: current.join('\n') });
    const block: DocBlock = { line: f.line, lang, code: f.body.join('\n'), expectStatus, segments };
    runnable.push(block);
    previous = block;
  }
  return { runnable, skipped, problems };
}
