import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import Router from '@koa/router';
import { transformSync } from 'esbuild';
import type { Context } from 'koa';
import { NotFoundError } from '../errors/BaseError.ts';

/**
 * Headers of every page and asset: resources from this origin only (data: images are the icons Swagger UI's CSS
 * embeds), no framing, no referrer, no MIME sniffing.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

const PAGES_DIR = fileURLToPath(new URL('../pages/', import.meta.url));
const SWAGGER_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const HTML = 'text/html; charset=utf-8';
const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/** Where a served file comes from: a file as is, or a browser TypeScript file under src/pages with its types stripped. */
interface Source {
  readonly type: string;
  readonly read: () => Buffer;
}

const file = (path: string, type: string): Source => ({ type, read: () => readFileSync(path) });
/** src/pages/<name>.ts as JavaScript: esbuild removes the types (no bundling; imports already name the served .js). */
const browserScript = (name: string): Source => ({
  type: JS,
  read: () =>
    Buffer.from(
      transformSync(readFileSync(join(PAGES_DIR, `${name}.ts`), 'utf8'), {
        loader: 'ts',
        format: 'esm',
        target: 'es2022',
        sourcefile: `${name}.ts`,
      }).code,
    ),
});

/**
 * A page: the body in src/pages/<name>.html inside src/pages/layout.html (head, site header), with its title and
 * stylesheets, and its own link in the site header marked as the current page.
 */
const page = (name: string, title: string, stylesheets: readonly string[]): Source => ({
  type: HTML,
  read: () => {
    const slots: Record<string, string> = {
      title,
      page: name,
      stylesheets: stylesheets.map((href) => `  <link rel="stylesheet" href="${href}">`).join('\n'),
      body: readFileSync(join(PAGES_DIR, `${name}.html`), 'utf8').trimEnd(),
    };
    const html = readFileSync(join(PAGES_DIR, 'layout.html'), 'utf8').replace(/\{\{(\w+)\}\}/g, (_, slot: string) => slots[slot] ?? '');
    return Buffer.from(html.replace(`<a href="/${name}">`, `<a href="/${name}" aria-current="page">`));
  },
});

/** The pages. */
const PAGES: Record<string, Source> = {
  '/docs': page('docs', 'API reference', ['/assets/swagger-ui.css', '/assets/pages.css']),
  '/playground': page('playground', 'Quote playground', ['/assets/pages.css']),
};

/** What the pages load, under /assets/. */
const ASSETS: Record<string, Source> = {
  'pages.css': file(join(PAGES_DIR, 'pages.css'), CSS),
  'docs.js': browserScript('docs'),
  'playground.js': browserScript('playground'),
  'routeView.js': browserScript('routeView'),
  'swagger-ui.css': file(join(SWAGGER_DIR, 'swagger-ui.css'), CSS),
  'swagger-ui-bundle.js': file(join(SWAGGER_DIR, 'swagger-ui-bundle.js'), JS),
  'favicon.png': file(join(SWAGGER_DIR, 'favicon-32x32.png'), 'image/png'),
};

interface Loaded {
  readonly type: string;
  readonly body: Buffer;
  readonly etag: string;
  gzip?: Buffer;
}

/** Files are read (and scripts transformed) on first request, once per process. */
const loaded = new Map<Source, Loaded>();
function load(source: Source): Loaded {
  let found = loaded.get(source);
  if (!found) {
    const body = source.read();
    found = { type: source.type, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
    loaded.set(source, found);
  }
  return found;
}

/** Sends a file with the page headers, revalidated by ETag (304), gzip when the client takes it. */
function send(ctx: Context, source: Source): void {
  const file = load(source);
  ctx.set(PAGE_HEADERS);
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('ETag', file.etag);
  ctx.set('Vary', 'Accept-Encoding');
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.type = file.type;
  if (!file.type.startsWith('image/') && ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    file.gzip ??= gzipSync(file.body);
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = file.gzip;
  } else {
    ctx.body = file.body;
  }
}

/** GET /docs (API reference), GET /playground (quote playground) and GET /assets/:file (what they load). */
export function pagesRouter(): Router {
  const router = new Router();
  for (const [path, source] of Object.entries(PAGES)) router.get(path, (ctx) => send(ctx, source));
  router.get('/assets/:file', (ctx) => {
    const source = Object.hasOwn(ASSETS, ctx.params.file) ? ASSETS[ctx.params.file] : undefined;
    if (!source) throw new NotFoundError(`not found: GET ${ctx.path}`);
    send(ctx, source);
  });
  return router;
}
