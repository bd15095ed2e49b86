import { EXAMPLE_TABS } from './examples';

/** Where the GraphiQL assets are served (relative URLs only: nothing leaves this host). */
export const ASSET_PREFIX = '/graphql/assets';

/**
 * The page: a slim bar (API key, uploads) above GraphiQL, all from local assets; the start-up
 * script is a separate local file. Element ids are what test/browser drives.
 */
export const GRAPHIQL_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Credgate GraphiQL</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${ASSET_PREFIX}/graphiql.min.css">
<style>
html,body{height:100%;margin:0}
body{display:flex;flex-direction:column;font:13px system-ui,sans-serif}
#credgate-bar{display:flex;flex-wrap:wrap;gap:6px 18px;align-items:center;padding:6px 12px;border-bottom:1px solid #ddd}
#credgate-bar form{display:flex;gap:6px;align-items:center;margin:0}
#credgate-bar input{font:inherit}
#credgate-key-status,#credgate-uploads{color:#555}
#graphiql{flex:1;min-height:0}
</style>
</head><body>
<header id="credgate-bar">
<strong>Credgate</strong>
<form id="credgate-key-form" autocomplete="off">
<label for="credgate-api-key">API key</label>
<input id="credgate-api-key" type="password" size="28" placeholder="paste your API key">
<button type="submit">Use key</button>
<button type="button" id="credgate-forget-key">Forget</button>
<span id="credgate-key-status" role="status"></span>
</form>
<form id="credgate-upload-form">
<label for="credgate-upload-variable">Upload</label>
<input id="credgate-upload-variable" size="16" placeholder="variable, e.g. originalPhoto">
<input id="credgate-upload-file" type="file">
<button type="submit">Attach</button>
<span id="credgate-uploads"></span>
</form>
</header>
<div id="graphiql">Loading GraphiQL…</div>
<script src="${ASSET_PREFIX}/react.production.min.js"></script>
<script src="${ASSET_PREFIX}/react-dom.production.min.js"></script>
<script src="${ASSET_PREFIX}/graphiql.min.js"></script>
<script src="${ASSET_PREFIX}/credgate-graphiql.js"></script>
</body></html>`;

/**
 * Starts GraphiQL against this service's /graphql.
 * - The API key is entered once in the bar and kept in this browser's localStorage (like
 *   GraphiQL's own persisted headers, `shouldPersistHeaders`); every request carries it as
 *   X-API-Key unless the headers editor names one. A new key re-renders GraphiQL with a new
 *   fetcher, which makes it fetch the schema (introspection needs a key) again.
 * - Uploads: GraphiQL's variables are JSON, so files are attached in the bar to a variable path;
 *   an operation that uses such a variable is sent as a GraphQL multipart request (the spec
 *   graphql-upload-minimal reads), with the preflight header Apollo's CSRF check asks for.
 */
export const GRAPHIQL_INIT_JS = `'use strict';
(function () {
  var KEY_STORE = 'credgate:apiKey';
  var tabs = ${JSON.stringify(EXAMPLE_TABS.map((t) => ({ query: t.query, variables: t.variables })))};
  var url = new URL('/graphql', location.href).toString();
  var uploads = {};

  function storedKey() {
    try { return localStorage.getItem(KEY_STORE) || ''; } catch (e) { return ''; }
  }
  function dropHeader(headers, name) {
    Object.keys(headers).forEach(function (k) { if (k.toLowerCase() === name) delete headers[k]; });
  }
  function withKey(headers) {
    var h = Object.assign({}, headers);
    var key = storedKey();
    var named = Object.keys(h).some(function (k) { return k.toLowerCase() === 'x-api-key'; });
    if (key && !named) h['X-API-Key'] = key;
    return h;
  }
  function setPath(target, path, value) {
    var parts = path.split('.');
    var at = target;
    for (var i = 0; i < parts.length - 1; i++) {
      if (at[parts[i]] === null || typeof at[parts[i]] !== 'object') at[parts[i]] = /^\\d+$/.test(parts[i + 1]) ? [] : {};
      at = at[parts[i]];
    }
    at[parts[parts.length - 1]] = value;
  }
  /** The attached files whose variable the document uses ($name). */
  function filesFor(query) {
    return Object.keys(uploads).filter(function (path) {
      return new RegExp('\\\\$' + path.split('.')[0] + '\\\\b').test(query);
    }).map(function (path) { return { path: path, file: uploads[path] }; });
  }
  function credgateFetch(target, init) {
    var headers = withKey(init.headers);
    var params = JSON.parse(init.body);
    var files = filesFor(params.query || '');
    if (files.length === 0) return fetch(target, Object.assign({}, init, { headers: headers }));
    var variables = JSON.parse(JSON.stringify(params.variables || {}));
    var map = {};
    var form = new FormData();
    files.forEach(function (f, i) { setPath(variables, f.path, null); map[String(i)] = ['variables.' + f.path]; });
    form.append('operations', JSON.stringify(Object.assign({}, params, { variables: variables })));
    form.append('map', JSON.stringify(map));
    files.forEach(function (f, i) { form.append(String(i), f.file, f.file.name); });
    dropHeader(headers, 'content-type');
    headers['apollo-require-preflight'] = 'true';
    return fetch(target, { method: 'POST', headers: headers, body: form });
  }

  // GraphiQL 3 fills the variables editor of a first visit from its stored variables, not from
  // the first default tab: seed them so the first example shows its variables.
  try {
    if (localStorage.getItem('graphiql:tabState') === null) localStorage.setItem('graphiql:variables', tabs[0].variables);
  } catch (e) { /* no storage: GraphiQL keeps state in memory */ }

  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  var generation = 0;
  function render() {
    // A new React key remounts GraphiQL (tabs come back from localStorage): the schema is fetched
    // again with the new key and no response of the old key stays on screen. Without a key there
    // is no schema fetch (it could only answer 401).
    generation += 1;
    root.render(React.createElement(GraphiQL, {
      key: 'credgate-' + generation,
      fetcher: GraphiQL.createFetcher({ url: url, fetch: credgateFetch }),
      schema: storedKey() ? undefined : null,
      defaultTabs: tabs,
      shouldPersistHeaders: true,
      defaultEditorToolsVisibility: 'variables',
      isHeadersEditorEnabled: true
    }));
  }

  var keyInput = document.getElementById('credgate-api-key');
  var keyStatus = document.getElementById('credgate-key-status');
  function showKey() {
    keyInput.value = '';
    keyInput.placeholder = storedKey() ? 'saved (enter another to replace)' : 'paste your API key';
    keyStatus.textContent = storedKey() ? 'Key saved in this browser, sent as X-API-Key.' : 'Enter a key to load the schema and run operations.';
  }
  document.getElementById('credgate-key-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var key = keyInput.value.trim();
    if (!key) return;
    try { localStorage.setItem(KEY_STORE, key); } catch (err) { keyStatus.textContent = 'This browser refused to store the key.'; return; }
    showKey();
    render();
  });
  document.getElementById('credgate-forget-key').addEventListener('click', function () {
    try { localStorage.removeItem(KEY_STORE); } catch (err) { /* nothing stored */ }
    showKey();
    render();
  });

  var uploadVariable = document.getElementById('credgate-upload-variable');
  var uploadFile = document.getElementById('credgate-upload-file');
  var uploadList = document.getElementById('credgate-uploads');
  function showUploads() {
    uploadList.textContent = '';
    Object.keys(uploads).forEach(function (path) {
      var item = document.createElement('span');
      item.className = 'credgate-upload';
      item.textContent = '$' + path + ' = ' + uploads[path].name + ' (' + uploads[path].size + ' B) ';
      var remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = '×';
      remove.title = 'Detach';
      remove.addEventListener('click', function () { delete uploads[path]; showUploads(); });
      item.appendChild(remove);
      uploadList.appendChild(item);
    });
  }
  document.getElementById('credgate-upload-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var path = uploadVariable.value.trim().replace(/^\\$/, '');
    var file = uploadFile.files && uploadFile.files[0];
    if (!/^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z0-9_]+)*$/.test(path) || !file) {
      uploadList.textContent = 'Name a variable (e.g. originalPhoto) and choose a file.';
      return;
    }
    uploads[path] = file;
    uploadVariable.value = '';
    uploadFile.value = '';
    showUploads();
  });

  showKey();
  render();
})();
`;
