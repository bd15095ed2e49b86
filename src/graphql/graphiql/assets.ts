import path from 'node:path';

/**
 * The files GraphiQL needs, served from node_modules (no CDN: the service must work offline).
 * A fixed list keyed by name: the request never chooses a path, so nothing else under
 * node_modules can be read through this route. GraphiQL 3 is the last major with a prebuilt
 * browser bundle (UMD + CSS) usable without a bundler; it expects React 18's UMD globals.
 */
const PACKAGE_FILES: Readonly<Record<string, { pkg: string; file: string; type: string }>> = {
  'react.production.min.js': { pkg: 'react', file: 'umd/react.production.min.js', type: 'text/javascript' },
  'react-dom.production.min.js': { pkg: 'react-dom', file: 'umd/react-dom.production.min.js', type: 'text/javascript' },
  'graphiql.min.js': { pkg: 'graphiql', file: 'graphiql.min.js', type: 'text/javascript' },
  'graphiql.min.css': { pkg: 'graphiql', file: 'graphiql.min.css', type: 'text/css' },
};

export interface PackageAsset {
  readonly absolutePath: string;
  readonly type: string;
}

export const ASSET_NAMES: readonly string[] = Object.keys(PACKAGE_FILES);

/** The file behind an asset name, or undefined for any other name. */
export function packageAsset(name: string): PackageAsset | undefined {
  if (!Object.hasOwn(PACKAGE_FILES, name)) return undefined;
  const { pkg, file, type } = PACKAGE_FILES[name]!;
  // package.json is exported by all three packages; the asset sits next to it.
  const dir = path.dirname(require.resolve(`${pkg}/package.json`));
  return { absolutePath: path.join(dir, file), type };
}
