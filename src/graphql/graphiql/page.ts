import { EXAMPLE_TABS } from './examples';

/** Where the GraphiQL assets are served (relative URLs only: nothing leaves this host). */
export const ASSET_PREFIX = '/graphql/assets';

/** The page: GraphiQL from local assets; its start-up script is a separate local file. */
export const GRAPHIQL_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Credgate GraphiQL</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${ASSET_PREFIX}/graphiql.min.css">
<style>html,body,#graphiql{height:100%;margin:0}</style>
</head><body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="${ASSET_PREFIX}/react.production.min.js"></script>
<script src="${ASSET_PREFIX}/react-dom.production.min.js"></script>
<script src="${ASSET_PREFIX}/graphiql.min.js"></script>
<script src="${ASSET_PREFIX}/credgate-graphiql.js"></script>
</body></html>`;

/**
 * Starts GraphiQL against this service's /graphql. The API key goes in the headers editor once:
 * `shouldPersistHeaders` keeps it (with history and tabs) in the browser's localStorage.
 */
export const GRAPHIQL_INIT_JS = `'use strict';
(function () {
  var tabs = ${JSON.stringify(EXAMPLE_TABS.map((t) => ({ query: t.query, variables: t.variables })))};
  var headers = JSON.stringify({ 'X-API-Key': '<your API key>' }, null, 2);
  var fetcher = GraphiQL.createFetcher({ url: new URL('/graphql', location.href).toString() });
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, {
    fetcher: fetcher,
    defaultTabs: tabs.map(function (t) { return { query: t.query, variables: t.variables, headers: headers }; }),
    defaultHeaders: headers,
    shouldPersistHeaders: true,
    defaultEditorToolsVisibility: 'headers',
    isHeadersEditorEnabled: true
  }));
})();
`;
