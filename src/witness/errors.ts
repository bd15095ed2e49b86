/** A one-line description of a caught value for logs and `last_error` (never a stack trace). */
export function errorMessage(e: unknown): string {
  const msg = e instanceof Error ? (e.cause instanceof Error ? `${e.message} (${e.cause.message})` : e.message) : String(e);
  return msg.split('\n')[0]!.slice(0, 200);
}
