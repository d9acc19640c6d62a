/** Builds the OpenAPI 3.1 document (filled in by the documentation module). */
export function buildOpenApiDocument(): Record<string, unknown> {
  return { openapi: '3.1.0', info: { title: 'Payments Platform API', version: '2025-10-13' }, paths: {} };
}
