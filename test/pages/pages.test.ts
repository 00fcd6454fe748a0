// The pages over HTTP, without a browser: exact security headers on every page and asset, content types,
// revalidation, gzip, unknown assets, and the browser scripts served as JavaScript without their types.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { inject } from 'light-my-request';
import t from 'tap';
import { buildTestApp } from '../helpers/testApp.ts';

const { app, request } = buildTestApp();
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const SERVED: [string, string][] = [
  ['/docs', 'text/html; charset=utf-8'],
  ['/playground', 'text/html; charset=utf-8'],
  ['/assets/pages.css', 'text/css; charset=utf-8'],
  ['/assets/docs.js', 'text/javascript; charset=utf-8'],
  ['/assets/playground.js', 'text/javascript; charset=utf-8'],
  ['/assets/routeView.js', 'text/javascript; charset=utf-8'],
  ['/assets/swagger-ui.css', 'text/css; charset=utf-8'],
  ['/assets/swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['/assets/favicon.png', 'image/png'],
];

t.test('every page and asset: 200, its type, the same-origin CSP and the other security headers', async (t) => {
  for (const [path, type] of SERVED) {
    const res = await request('GET', path);
    t.equal(res.status, 200, path);
    t.strictSame(
      [
        res.headers['content-type'],
        res.headers['content-security-policy'],
        res.headers['x-content-type-options'],
        res.headers['referrer-policy'],
        res.headers['x-frame-options'],
        res.headers['cross-origin-opener-policy'],
        res.headers['cache-control'],
      ],
      [type, CSP, 'nosniff', 'no-referrer', 'DENY', 'same-origin', 'no-cache'],
      `${path}: headers`,
    );
  }
});

t.test('the pages load nothing from another origin: every src and href is a path of this service', async (t) => {
  for (const page of ['/docs', '/playground']) {
    const html = (await request('GET', page)).text;
    const refs = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    t.ok(refs.length >= 4, `${page}: ${refs.length} references`);
    for (const ref of refs) {
      t.match(ref, /^\/[a-z]/, `${page}: ${ref} is a path here`);
      t.equal((await request('GET', ref)).status, 200, `${page}: ${ref} is served`);
    }
    t.notMatch(html, /<script>|<style|\sstyle="|\son[a-z]+="/, `${page}: no inline script, style or handler (the CSP would refuse them)`);
    t.equal(html.match(/aria-current="page"/g)?.length, 1, `${page}: one current page in the site header`);
    t.match(html, `<a href="${page}" aria-current="page">`, `${page}: its own link`);
    t.notMatch(html, /\{\{/, `${page}: every layout slot filled`);
  }
});

t.test('vendor files are served byte for byte from swagger-ui-dist', async (t) => {
  const res = await request('GET', '/assets/swagger-ui-bundle.js');
  t.equal(res.text, readFileSync(join(swaggerDir, 'swagger-ui-bundle.js'), 'utf8'));
});

t.test('browser scripts are JavaScript: the TypeScript types are gone, imports name served files', async (t) => {
  const playground = (await request('GET', '/assets/playground.js')).text;
  t.notMatch(playground, /\binterface\s|: HTMLElement|<T>|import type/, 'no type syntax left');
  t.match(playground, /from "\.\/routeView\.js"/, 'imports /assets/routeView.js');
  const view = (await request('GET', '/assets/routeView.js')).text;
  t.match(view, /\bfunction drawRoute\(quote, token, dexName\) \{/);
  t.match(view, /export \{[^}]*\bdrawRoute\b/);
});

t.test('ETag revalidation: 304 without a body when unchanged', async (t) => {
  const first = await request('GET', '/assets/playground.js');
  const etag = String(first.headers.etag);
  t.match(etag, /^"[A-Za-z0-9_-]{22}"$/);
  const again = await request('GET', '/assets/playground.js', { headers: { 'if-none-match': etag } });
  t.strictSame([again.status, again.text, again.headers.etag], [304, '', etag]);
  const changed = await request('GET', '/assets/playground.js', { headers: { 'if-none-match': '"other"' } });
  t.equal(changed.status, 200);
});

t.test('gzip when the client takes it; identity otherwise; images never', async (t) => {
  const plain = await request('GET', '/assets/swagger-ui.css');
  const zipped = await request('GET', '/assets/swagger-ui.css', { headers: { 'accept-encoding': 'gzip, br' } });
  t.equal(zipped.headers['content-encoding'], 'gzip');
  t.equal(zipped.headers.vary, 'Accept-Encoding');
  t.equal(plain.headers['content-encoding'], undefined);
  const raw = await inject(app.callback(), { method: 'GET', url: '/assets/swagger-ui.css', headers: { 'accept-encoding': 'gzip' } });
  t.equal(gunzipSync(raw.rawPayload).toString('utf8'), plain.text, 'the gzip body is the file');
  const image = await request('GET', '/assets/favicon.png', { headers: { 'accept-encoding': 'gzip' } });
  t.equal(image.headers['content-encoding'], undefined);
});

t.test('HEAD has the headers and no body; other methods are 405; unknown assets are 404 envelopes', async (t) => {
  const head = await request('HEAD', '/docs');
  t.strictSame([head.status, head.text, head.headers['content-security-policy']], [200, '', CSP]);
  const post = await request('POST', '/playground', { body: {} });
  t.strictSame([post.status, post.body, post.headers.allow], [405, { code: 405, message: 'method not allowed' }, 'HEAD, GET']);
  for (const path of ['/assets/nope.js', '/assets/package.json', '/assets/..%2Fpackage.json', '/assets/constructor', '/assets/__proto__']) {
    const res = await request('GET', path);
    t.strictSame([res.status, res.body], [404, { code: 404, message: `not found: GET ${path}` }], path);
  }
});
