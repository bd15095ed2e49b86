/**
 * A self-contained GraphQL playground (no CDN: the service must work offline). It posts to
 * /graphql with the API key typed into the page and can list the schema via introspection.
 */
export const PLAYGROUND_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Credgate GraphQL</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;display:grid;grid-template-rows:auto 1fr;height:100vh}
header{display:flex;gap:.5rem;align-items:center;padding:.5rem;background:#1f2937;color:#fff}
header input{flex:0 1 28rem;font-family:monospace}
main{display:grid;grid-template-columns:1fr 1fr;gap:.5rem;padding:.5rem;min-height:0}
section{display:grid;grid-template-rows:2fr 1fr;gap:.5rem;min-height:0}
textarea,pre{font-family:ui-monospace,monospace;font-size:13px;border:1px solid #ccc;padding:.5rem;margin:0;overflow:auto;resize:none}
pre{background:#f9fafb;white-space:pre-wrap}
</style></head>
<body>
<header><strong>Credgate GraphQL</strong>
<label>X-API-Key <input id="key" type="password" autocomplete="off"></label>
<button id="run">Run ▶</button><button id="schema">Schema</button></header>
<main><section>
<textarea id="query" aria-label="query">query Resolve($did: String!) {
  didResolution(did: $did) { didDocument didResolutionMetadata { error } }
}</textarea>
<textarea id="vars" aria-label="variables">{ "did": "did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp" }</textarea>
</section><pre id="out" aria-live="polite"></pre></main>
<script>
const $ = (id) => document.getElementById(id);
$('key').value = sessionStorage.getItem('credgate-key') || '';
async function post(query, variables) {
  sessionStorage.setItem('credgate-key', $('key').value);
  const r = await fetch(location.pathname, { method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': $('key').value },
    body: JSON.stringify({ query, variables }) });
  return r.json();
}
$('run').onclick = async () => {
  let vars = {};
  try { vars = JSON.parse($('vars').value || '{}'); } catch (e) { $('out').textContent = 'variables: ' + e.message; return; }
  $('out').textContent = JSON.stringify(await post($('query').value, vars), null, 2);
};
$('schema').onclick = async () => {
  const q = '{ __schema { queryType { fields { name description } } mutationType { fields { name description } } } }';
  const r = await post(q, {});
  const s = r.data && r.data.__schema;
  $('out').textContent = s ? ['# Queries', ...s.queryType.fields.map(f => f.name + ' — ' + (f.description || '')),
    '', '# Mutations', ...(s.mutationType ? s.mutationType.fields : []).map(f => f.name + ' — ' + (f.description || ''))].join('\\n')
    : JSON.stringify(r, null, 2);
};
</script></body></html>`;
