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

function summariseProfile(file, top = 15) {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map();
  prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
  const totalUs = [...self.values()].reduce((a, b) => a + b, 0);
  const frames = new Map();
  const areas = new Map();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const name = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}` : ''}`.trim();
    frames.set(name, (frames.get(name) ?? 0) + us);
    const a = area(url, functionName);
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
