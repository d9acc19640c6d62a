// Renders the service's OpenAPI document with Swagger UI (served from the installed swagger-ui-dist).
const base = document.documentElement.dataset.base;
window.ui = window.SwaggerUIBundle({
  url: `/${base}/openapi.json`,
  dom_id: '#swagger-ui',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  displayRequestDuration: true,
  tryItOutEnabled: false,
});
