/** Whether a path is under the VC-API base path (case-insensitive, like express). */
export function isVcApiPath(path: string, base: string): boolean {
  const p = path.toLowerCase();
  const b = base.toLowerCase();
  return p === b || p.startsWith(`${b}/`);
}
