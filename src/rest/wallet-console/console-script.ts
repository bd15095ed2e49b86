/**
 * The operator page's script (a separate file, so the page runs under `script-src 'self'`).
 * Everything that came from the API (and so, for a presentation, from a wallet) is put on the page
 * with textContent or as an attribute checked first: never as HTML. Progress is polled (one GET a
 * second) rather than pushed: it needs nothing beyond the existing read operations and survives
 * proxies that buffer event streams.
 */
export const CONSOLE_JS = `'use strict';
(function () {
  var KEY_STORE = 'credgate:apiKey';
  var POLL_MS = 1000;
  var OFFER_DONE = { accepted: true, failed: true, revoked: true };
  var OFFER_LABELS = {
    'offered': 'waiting for the wallet to scan the code',
    'token-issued': 'picked up: the wallet redeemed the code',
    'credential-issued': 'credential issued',
    'accepted': 'accepted: the wallet stored the credential',
    'failed': 'the wallet reported a failure',
    'revoked': 'revoked'
  };
  var REQUEST_LABELS = { pending: 'waiting for the wallet', verified: 'verified', failed: 'failed' };
  var configurations = [];
  var offerTimer = null;
  var requestTimer = null;

  function $(id) { return document.getElementById(id); }
  function storedKey() {
    try { return localStorage.getItem(KEY_STORE) || ''; } catch (e) { return ''; }
  }
  function text(id, value) { $(id).textContent = value == null ? '' : String(value); }
  function el(tag, value, className) {
    var e = document.createElement(tag);
    if (value !== undefined) e.textContent = String(value);
    if (className) e.className = className;
    return e;
  }

  /** One call of this service's API with the stored key; rejects with the API's own message. */
  function api(method, path, body) {
    var headers = { 'X-API-Key': storedKey(), 'Accept': 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) }).then(function (res) {
      return res.text().then(function (raw) {
        var json = null;
        try { json = raw ? JSON.parse(raw) : null; } catch (e) { json = null; }
        if (!res.ok) {
          var message = json && (json.error_description || json.message || json.error || json.detail || json.title);
          throw new Error(res.status + ': ' + (typeof message === 'string' ? message : res.statusText));
        }
        return json;
      });
    });
  }

  /** A QR code from the API is a PNG data URL; anything else is not put in an img. */
  function showQr(id, dataUrl) {
    var img = $(id);
    if (typeof dataUrl === 'string' && dataUrl.indexOf('data:image/png;base64,') === 0) img.src = dataUrl;
    else img.removeAttribute('src');
  }
  /** A wallet link: only the two schemes wallets register become a clickable link. */
  function showLink(id, uri, scheme) {
    var a = $(id);
    a.textContent = uri;
    if (typeof uri === 'string' && uri.indexOf(scheme) === 0) a.setAttribute('href', uri);
    else a.removeAttribute('href');
  }

  // ---- the key bar (GraphiQL's) ----
  var keyInput = $('credgate-api-key');
  function showKey() {
    keyInput.value = '';
    keyInput.placeholder = storedKey() ? 'saved (enter another to replace)' : 'paste your API key';
    text('credgate-key-status', storedKey() ? 'Key saved in this browser, sent as X-API-Key.' : 'Enter a key (scopes issuer and verifier) to use this page.');
  }
  $('credgate-key-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var key = keyInput.value.trim();
    if (!key) return;
    try { localStorage.setItem(KEY_STORE, key); } catch (err) { text('credgate-key-status', 'This browser refused to store the key.'); return; }
    showKey();
  });
  $('credgate-forget-key').addEventListener('click', function () {
    try { localStorage.removeItem(KEY_STORE); } catch (err) { /* nothing stored */ }
    showKey();
  });

  // ---- issue ----
  function option(value, label) {
    var o = document.createElement('option');
    o.value = value;
    o.textContent = label;
    return o;
  }
  function claimName(path) { return path[path.length - 1]; }
  function fillSubject() {
    var c = configurations[Number($('configuration').value)];
    if (!c) return;
    var subject = {};
    c.claims.forEach(function (p) { subject[claimName(p)] = ''; });
    $('subject-json').value = JSON.stringify(subject, null, 2);
  }
  $('configuration').addEventListener('change', fillSubject);
  $('load-configurations').addEventListener('click', function () {
    text('configurations-status', 'Loading…');
    api('GET', '/wallets/api/configurations').then(function (answer) {
      configurations = Array.isArray(answer && answer.configurations) ? answer.configurations : [];
      var select = $('configuration');
      var presets = $('dcql-preset');
      select.textContent = '';
      presets.textContent = '';
      presets.appendChild(option('', '(write your own)'));
      configurations.forEach(function (c, i) {
        select.appendChild(option(String(i), c.name + ' (' + c.format + ')'));
        // A DCQL preset needs what the query names the credential by: its vct or its doctype (the
        // configuration carries one when its format can be presented; the page never decides by format name).
        if (c.vct || c.doctype) presets.appendChild(option(String(i), c.name + ' (' + c.format + ')'));
      });
      select.disabled = configurations.length === 0;
      text('configurations-status', configurations.length + ' credential configuration(s) of ' + (answer && answer.credentialIssuer));
      fillSubject();
    }, function (err) { text('configurations-status', err.message); });
  });

  function showOffer(view) {
    var status = String(view.status);
    $('offer-status').setAttribute('data-status', status);
    text('offer-status', OFFER_LABELS[status] || status);
  }
  function pollOffer(id) {
    if (offerTimer) clearTimeout(offerTimer);
    offerTimer = setTimeout(function () {
      api('GET', '/oid4vci/offers/' + encodeURIComponent(id)).then(function (view) {
        showOffer(view);
        if (!OFFER_DONE[view.status]) pollOffer(id);
      }, function (err) { text('offer-error', err.message); pollOffer(id); });
    }, POLL_MS);
  }
  $('create-offer').addEventListener('click', function () {
    text('offer-error', '');
    var c = configurations[Number($('configuration').value)];
    if (!c) { text('offer-error', 'Load the list and pick a credential first.'); return; }
    var claims;
    try { claims = JSON.parse($('subject-json').value); } catch (e) { text('offer-error', 'Subject data is not JSON: ' + e.message); return; }
    var body = { credentialConfigurationIds: [c.id], claims: claims, byReference: $('by-reference').checked };
    var digits = $('tx-code-length').value.trim();
    if (digits) body.txCodeLength = Number(digits);
    api('POST', '/oid4vci/offers', body).then(function (offer) {
      $('offer').hidden = false;
      showQr('offer-qr', offer.qrPng);
      showLink('offer-link', offer.offerUri, 'openid-credential-offer://');
      text('offer-tx-code', offer.txCode || '(none)');
      text('offer-id', offer.id);
      showOffer(offer);
      pollOffer(offer.id);
    }, function (err) { text('offer-error', err.message); });
  });

  // ---- verify ----
  $('dcql-preset').addEventListener('change', function () {
    var c = configurations[Number(this.value)];
    if (!this.value || !c) return;
    var query = { id: 'credential', format: c.format, claims: c.claims.map(function (p) { return { path: p }; }) };
    query.meta = c.doctype ? { doctype_value: c.doctype } : { vct_values: [c.vct] };
    $('dcql-query').value = JSON.stringify({ credentials: [query] }, null, 2);
  });

  /** A claim value as text: strings as they are, anything else as JSON. */
  function valueText(v) { return typeof v === 'string' ? v : JSON.stringify(v); }
  function claimRows(table, prefix, value) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
      Object.keys(value).forEach(function (k) { claimRows(table, prefix.concat([k]), value[k]); });
      return;
    }
    var tr = document.createElement('tr');
    tr.appendChild(el('td', prefix.join('.')));
    tr.appendChild(el('td', valueText(value)));
    table.appendChild(tr);
  }
  function showResult(result) {
    var box = $('request-result');
    box.textContent = '';
    if (!result) return;
    box.appendChild(el('p', result.verified ? 'Verified: signatures, key binding, status and the query are satisfied.' : 'Not verified.', result.verified ? 'passed' : 'failed'));
    (Array.isArray(result.credentials) ? result.credentials : []).forEach(function (cred) {
      var section = document.createElement('div');
      section.className = 'presented';
      section.appendChild(el('h3', cred.queryId + ' (' + cred.format + ')' + (cred.issuer ? ' from ' + cred.issuer : '')));
      var table = document.createElement('table');
      table.className = 'claims';
      claimRows(table, [], cred.claims || {});
      section.appendChild(table);
      var checks = document.createElement('ul');
      checks.className = 'checks';
      (Array.isArray(cred.checks) ? cred.checks : []).forEach(function (ch) {
        checks.appendChild(el('li', (ch.passed ? '✓ ' : '✗ ') + ch.check + (ch.message ? ': ' + ch.message : ''), ch.passed ? 'passed' : 'failed'));
      });
      section.appendChild(checks);
      box.appendChild(section);
    });
    var problems = Array.isArray(result.problems) ? result.problems : [];
    if (problems.length > 0) {
      var list = document.createElement('ul');
      list.className = 'problems';
      problems.forEach(function (p) { list.appendChild(el('li', p.code + ': ' + p.message, 'failed')); });
      box.appendChild(list);
    }
  }
  function showRequest(view) {
    var status = String(view.status);
    $('request-status').setAttribute('data-status', status);
    text('request-status', REQUEST_LABELS[status] || status);
    showResult(view.result);
  }
  function pollRequest(id) {
    if (requestTimer) clearTimeout(requestTimer);
    requestTimer = setTimeout(function () {
      api('GET', '/oid4vp/requests/' + encodeURIComponent(id) + '/result').then(function (view) {
        showRequest(view);
        if (view.status === 'pending') pollRequest(id);
      }, function (err) { text('request-error', err.message); pollRequest(id); });
    }, POLL_MS);
  }
  $('create-request').addEventListener('click', function () {
    text('request-error', '');
    var query;
    try { query = JSON.parse($('dcql-query').value); } catch (e) { text('request-error', 'The DCQL query is not JSON: ' + e.message); return; }
    api('POST', '/oid4vp/requests', { dcqlQuery: query, responseMode: $('response-mode').value }).then(function (created) {
      return api('GET', '/wallets/api/presentation-requests/' + encodeURIComponent(created.id) + '/qr').then(function (qr) {
        $('request').hidden = false;
        showQr('request-qr', qr.qrPng);
        showLink('request-link', created.authorizationRequest, 'openid4vp://');
        text('request-id', created.id);
        showRequest(created);
        pollRequest(created.id);
      });
    }).catch(function (err) { text('request-error', err.message); });
  });

  showKey();
})();
`;
