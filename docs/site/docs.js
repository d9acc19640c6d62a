// Renders the service's OpenAPI document with Swagger UI (served from the installed swagger-ui-dist).
const base = document.documentElement.dataset.base;

/** The value a local JSON pointer (`#/components/schemas/Customer`) names in `doc`, or undefined. */
const pointed = (doc, ref) =>
  ref
    .slice(2)
    .split('/')
    .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node, key) => (node && typeof node === 'object' ? node[key] : undefined), doc);

/**
 * `node` with every local reference replaced by what it names, marked with `$$ref` as swagger-client marks it (the
 * models are named from it); a reference back into its own chain stays a reference.
 */
function resolveLocal(doc, node, chain) {
  if (Array.isArray(node)) return node.map((item) => resolveLocal(doc, item, chain));
  if (!node || typeof node !== 'object') return node;
  const ref = node.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/') && !chain.includes(ref)) {
    const target = pointed(doc, ref);
    if (target && typeof target === 'object' && !Array.isArray(target)) {
      const { $ref, ...siblings } = node;
      const resolved = resolveLocal(doc, target, [...chain, $ref]);
      return { ...resolved, ...resolveLocal(doc, siblings, chain), $$ref: $ref };
    }
  }
  const out = {};
  for (const [key, value] of Object.entries(node)) out[key] = resolveLocal(doc, value, chain);
  return out;
}

/**
 * Swagger UI resolves each part it shows (an operation, a schema) with swagger-client, whose OpenAPI 3.1 strategy
 * converts the whole document again for every part: seconds per operation with this document. Its references are all
 * local (`#/components/...`), so the part is resolved here, in milliseconds.
 */
const LocalResolver = () => ({
  fn: {
    resolveSubtree: async (spec, path) => {
      const subtree = path.reduce((node, key) => (node && typeof node === 'object' ? node[key] : undefined), spec);
      return { errors: [], spec: resolveLocal(spec, subtree, []) };
    },
  },
});

/** The words of a search, each of which an operation's tag, method, path, summary or operation id must contain. */
const words = (phrase) => phrase.toLowerCase().split(/\s+/).filter(Boolean);
const searchable = (tag, op) =>
  [tag, op.get('method'), op.get('path'), op.getIn(['operation', 'summary']), op.getIn(['operation', 'operationId'])]
    .filter((part) => typeof part === 'string')
    .join(' ')
    .toLowerCase();

/** The search box (`filter`) finds operations, not only tags: the tags left hold only the operations that match. */
const OperationSearch = () => ({
  fn: {
    opsFilter: (taggedOps, phrase) => {
      const wanted = words(phrase);
      if (wanted.length === 0) return taggedOps;
      return taggedOps
        .map((tagObj, tag) =>
          tagObj.set(
            'operations',
            tagObj.get('operations').filter((op) => wanted.every((word) => searchable(tag, op).includes(word))),
          ),
        )
        .filter((tagObj) => tagObj.get('operations').size > 0);
    },
  },
});

/** The document is JSON: parsed as such, not by the YAML parser Swagger UI reads any document with (a second saved). */
const JsonDocument = () => ({
  statePlugins: {
    spec: {
      actions: {
        parseToJson:
          (text) =>
          ({ specActions, specSelectors, errActions }) => {
            errActions.clear({ source: 'parser' });
            try {
              const json = JSON.parse(text ?? specSelectors.specStr());
              return specActions.updateJsonSpec(json && typeof json === 'object' ? json : {});
            } catch (error) {
              errActions.newSpecErr({ source: 'parser', level: 'error', message: String(error) });
              return specActions.updateJsonSpec({});
            }
          },
      },
    },
  },
});

/** A deep link or a click on a tag jumps to its operation at once, not in a second of animated scrolling. */
const InstantScroll = () => ({
  statePlugins: {
    layout: {
      actions: {
        scrollToElement: (element) => () => element.scrollIntoView({ block: 'start' }),
      },
    },
  },
});

window.ui = window.SwaggerUIBundle({
  url: `/${base}/openapi.json`,
  dom_id: '#swagger-ui',
  plugins: [JsonDocument, LocalResolver, OperationSearch, InstantScroll],
  deepLinking: true,
  filter: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  displayRequestDuration: true,
  tryItOutEnabled: false,
  onComplete: () =>
    document
      .querySelector('.operation-filter-input')
      ?.setAttribute('placeholder', 'Search operations: path, summary, tag or operation id'),
});
