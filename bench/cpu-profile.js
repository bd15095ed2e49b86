'use strict';
/** Summarises a V8 .cpuprofile (node --cpu-prof): self time by function and by package or source folder. */
const fs = require('node:fs');

/** `node_modules/<pkg>` (scoped too), `dist/<folder>`, `node:<module>`, or the V8 category in parentheses. */
function area(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1];
  const dist = /\/dist\/([^/]+)/.exec(url);
  if (dist) return `credgate ${dist[1].replace(/\.js$/, '')}`;
  if (url.startsWith('node:')) return url.split('/')[0];
  return url;
}

/**
 * Self time per function and per area. `window` = { fromEndMs, toEndMs } keeps only the samples
 * taken between that many ms before the profile's end (the process exit), so start-up (module
 * loading, migrations) and shutdown stay out of the figures of the measured round. WebAssembly,
 * native and node-internal frames count, by area, for the nearest package or Credgate frame above them.
 */
/** A frame's file from its package (`node_modules/pg/lib/…`) or the build (`dist/…`). */
function shortUrl(url) {
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm);
  const dist = url.lastIndexOf('/dist/');
  return dist >= 0 ? url.slice(dist + 1) : url;
}

function summariseProfile(file, top = 15, window = undefined) {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  let t = prof.startTime;
  const from = window ? prof.endTime - window.fromEndMs * 1000 : -Infinity;
  const to = window ? prof.endTime - window.toEndMs * 1000 : Infinity;
  prof.samples.forEach((id, i) => {
    t += prof.timeDeltas[i] ?? 0;
    if (t >= from && t <= to) self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0));
  });
  const totalUs = [...self.values()].reduce((a, b) => a + b, 0);
  // Native, node-internal and wasm frames are charged to the nearest package or Credgate frame
  // above them (writev under pg is pg's cost, not "native"); V8's own categories stay as they are.
  const isOwned = (f) => /node_modules\/|\/dist\//.test(f.url);
  const areaOf = (id) => {
    const own = byId.get(id).callFrame;
    if (own.functionName.startsWith('(') && !own.url) return own.functionName;
    for (let n = byId.get(id); n; n = byId.get(parent.get(n.id))) if (isOwned(n.callFrame)) return area(n.callFrame.url, n.callFrame.functionName);
    return area(own.url, own.functionName);
  };
  const frames = new Map();
  const areas = new Map();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const name = `${functionName || '(anonymous)'} ${url ? `${shortUrl(url)}:${lineNumber + 1}` : ''}`.trim();
    frames.set(name, (frames.get(name) ?? 0) + us);
    const a = areaOf(id);
    areas.set(a, (areas.get(a) ?? 0) + us);
  }
  const rank = (m) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: us / 1000, share: us / totalUs }));
  return { file, totalMs: totalUs / 1000, frames: rank(frames), areas: rank(areas) };
}

module.exports = { summariseProfile };
