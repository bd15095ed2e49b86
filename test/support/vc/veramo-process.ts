import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** The Veramo agent of test/interop/veramo.mjs in a child process; requests are JSON lines. */
export interface VeramoProcess {
  request<T>(op: string, args?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

const SCRIPT = path.resolve(__dirname, '..', '..', 'interop', 'veramo.mjs');

export async function startVeramo(): Promise<VeramoProcess> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let ready: () => void = () => undefined;
  let failed: (e: Error) => void = () => undefined;
  const started = new Promise<void>((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as { ready?: boolean; id?: number; ok?: boolean; result?: unknown; error?: string };
    if (message.ready) return ready();
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id as number);
    if (message.ok) waiter.resolve(message.result);
    else waiter.reject(new Error(`Veramo: ${message.error ?? 'failed'}`));
  });
  child.on('exit', (code) => {
    const error = new Error(`the Veramo process exited (${String(code)}): ${stderr.slice(-2000)}`);
    failed(error);
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  });
  await started;
  let next = 0;
  return {
    request<T>(op: string, args: Record<string, unknown> = {}): Promise<T> {
      const id = ++next;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.stdin.write(`${JSON.stringify({ ...args, id, op })}\n`);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
        child.kill();
      }),
  };
}
