/** Where the page's own script and style are served (relative URLs only: nothing leaves this host). */
export const CONSOLE_ASSET_PREFIX = '/wallets/assets';

/**
 * The page's Content-Security-Policy: its script and style from this host only (no inline code, so
 * an injected tag cannot run), requests to this host only, images from this host or the data: URLs
 * of the QR codes the API answers, and no framing (clickjacking a page that creates offers).
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The operator page. The key bar is GraphiQL's (same ids, same localStorage entry, so a key entered
 * in one page works in the other). Element ids are what test/browser drives.
 */
export const CONSOLE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Credgate wallets</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${CONSOLE_ASSET_PREFIX}/console.css">
</head><body>
<header id="credgate-bar">
<strong>Credgate wallets</strong>
<form id="credgate-key-form" autocomplete="off">
<label for="credgate-api-key">API key</label>
<input id="credgate-api-key" type="password" size="28" placeholder="paste your API key">
<button type="submit">Use key</button>
<button type="button" id="credgate-forget-key">Forget</button>
<span id="credgate-key-status" role="status"></span>
</form>
</header>
<main>
<section id="issue" aria-labelledby="issue-title">
<h2 id="issue-title">Offer a credential to a wallet</h2>
<p class="hint">OpenID4VCI: the wallet scans the code, the user types the transaction code shown here.</p>
<div class="row"><button type="button" id="load-configurations">Load templates and schemas</button>
<span id="configurations-status" role="status"></span></div>
<div class="row"><label for="configuration">Credential</label>
<select id="configuration" disabled><option value="">(load the list first)</option></select></div>
<div class="row column"><label for="subject-json">Subject data (JSON)</label>
<textarea id="subject-json" rows="7" spellcheck="false">{}</textarea></div>
<div class="row"><label for="tx-code-length">Transaction code digits</label>
<input id="tx-code-length" type="number" min="4" max="12" value="6">
<label><input id="by-reference" type="checkbox" checked> offer by reference</label>
<button type="button" id="create-offer">Create offer</button></div>
<p id="offer-error" class="error" role="alert"></p>
<div id="offer" hidden>
<img id="offer-qr" alt="QR code of the credential offer">
<div class="details">
<p>Link: <a id="offer-link" href="#"></a></p>
<p>Transaction code to tell the user: <strong id="offer-tx-code"></strong></p>
<p>Offer <code id="offer-id"></code></p>
<p>Status: <strong id="offer-status" role="status" data-status=""></strong></p>
</div>
</div>
</section>
<section id="verify" aria-labelledby="verify-title">
<h2 id="verify-title">Ask a wallet for a presentation</h2>
<p class="hint">OpenID4VP with a DCQL query: the wallet scans the code and answers this service directly.</p>
<div class="row"><label for="dcql-preset">Start from</label>
<select id="dcql-preset"><option value="">(load the list above for presets)</option></select></div>
<div class="row column"><label for="dcql-query">DCQL query</label>
<textarea id="dcql-query" rows="9" spellcheck="false"></textarea></div>
<div class="row"><label for="response-mode">Response</label>
<select id="response-mode"><option value="direct_post.jwt">encrypted (direct_post.jwt)</option><option value="direct_post">direct_post</option></select>
<button type="button" id="create-request">Create request</button></div>
<p id="request-error" class="error" role="alert"></p>
<div id="request" hidden>
<img id="request-qr" alt="QR code of the presentation request">
<div class="details">
<p>Link: <a id="request-link" href="#"></a></p>
<p>Request <code id="request-id"></code></p>
<p>Status: <strong id="request-status" role="status" data-status=""></strong></p>
<div id="request-result"></div>
</div>
</div>
</section>
</main>
<script src="${CONSOLE_ASSET_PREFIX}/console.js"></script>
</body></html>`;

export const CONSOLE_CSS = `html,body{margin:0;font:14px system-ui,sans-serif;color:#222}
#credgate-bar{display:flex;flex-wrap:wrap;gap:6px 18px;align-items:center;padding:6px 12px;border-bottom:1px solid #ddd}
#credgate-bar form{display:flex;gap:6px;align-items:center;margin:0}
#credgate-key-status{color:#555}
main{display:flex;flex-wrap:wrap;gap:24px;padding:12px}
section{flex:1 1 560px;border:1px solid #ddd;border-radius:6px;padding:0 14px 14px}
.row{display:flex;gap:8px;align-items:center;margin:8px 0}
.row.column{flex-direction:column;align-items:stretch}
textarea{font:12px ui-monospace,monospace}
.hint{color:#555}
.error{color:#a00;min-height:1em}
#offer,#request{display:flex;gap:16px;align-items:flex-start}
#offer[hidden],#request[hidden]{display:none}
#offer-qr,#request-qr{width:260px;height:260px;image-rendering:pixelated;border:1px solid #eee}
.details{min-width:0;word-break:break-all}
.claims{border-collapse:collapse}
.claims td{border:1px solid #ddd;padding:2px 6px;font:12px ui-monospace,monospace}
.claims td:first-child{white-space:nowrap}
.passed{color:#070}
.failed{color:#a00}
`;
