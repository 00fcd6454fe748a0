/**
 * GET /docs: Swagger UI (swagger-ui-dist, served from this origin) rendering the served /openapi.json. No top bar (no
 * way to load another document), no online validator badge: nothing is fetched from another origin.
 */

interface SwaggerUIOptions {
  url: string;
  dom_id: string;
  deepLinking: boolean;
  validatorUrl: null;
  layout: 'BaseLayout';
  docExpansion: 'list' | 'full' | 'none';
  defaultModelsExpandDepth: number;
  displayRequestDuration: boolean;
  presets: unknown[];
}

/** The global swagger-ui-bundle.js defines. */
declare const SwaggerUIBundle: ((options: SwaggerUIOptions) => unknown) & { presets: { apis: unknown } };

SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  layout: 'BaseLayout',
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  displayRequestDuration: true,
  presets: [SwaggerUIBundle.presets.apis],
});
