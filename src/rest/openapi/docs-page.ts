import path from 'node:path';

/** Where /docs loads its files from (relative URLs only: nothing leaves this host, no CDN). */
export const DOCS_ASSET_PREFIX = '/docs/assets';

/**
 * Swagger UI's prebuilt browser files, served from the swagger-ui-dist package. A fixed list keyed
 * by name: a request never chooses a path, so nothing else under node_modules is reachable.
 */
const SWAGGER_FILES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'swagger-ui.css',
  'swagger-ui-bundle.js': 'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js': 'swagger-ui-standalone-preset.js',
  'favicon-32x32.png': 'favicon-32x32.png',
};

/** The absolute path of a Swagger UI file, or undefined for any other name. */
export function swaggerFile(name: string): string | undefined {
  if (!Object.hasOwn(SWAGGER_FILES, name)) return undefined;
  return path.join(path.dirname(require.resolve('swagger-ui-dist/package.json')), SWAGGER_FILES[name]!);
}

export const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Credgate API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/png" href="${DOCS_ASSET_PREFIX}/favicon-32x32.png">
<link rel="stylesheet" href="${DOCS_ASSET_PREFIX}/swagger-ui.css">
</head><body>
<div id="swagger-ui">Loading the API reference…</div>
<script src="${DOCS_ASSET_PREFIX}/swagger-ui-bundle.js"></script>
<script src="${DOCS_ASSET_PREFIX}/swagger-ui-standalone-preset.js"></script>
<script src="${DOCS_ASSET_PREFIX}/credgate-docs.js"></script>
</body></html>`;

/**
 * Starts Swagger UI on /openapi.json. A separate file rather than an inline script, so the page
 * works under a `script-src 'self'` Content-Security-Policy. "Try it out" sends the X-API-Key
 * entered under "Authorize"; `persistAuthorization` keeps it in the browser across reloads.
 */
export const DOCS_INIT_JS = `'use strict';
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: new URL('/openapi.json', location.href).toString(),
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    displayOperationId: true,
    // Shows x-example-expects: what Execute gets with an example that names another deployment's records.
    showExtensions: true,
    docExpansion: 'list',
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'BaseLayout'
  });
});
`;
