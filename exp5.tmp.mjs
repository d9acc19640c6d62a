import Database from 'better-sqlite3';
const src = new Database('/tmp/bench-replay-EhDQgc/read-models.db', { readonly: true });
const rows = src.prepare('select collection, id, body from docs').all();
const idx = [
  ['platformId', 'umaAddress', 'createdAt'],
  ['platformId', 'customerId', 'createdAt'],
  ['credentialId', 'createdAt'],
  ['platformId', 'accountId', 'createdAt'],
  ['platformId', 'agentId', 'createdAt'],
];
const owners = {
  'platformId,umaAddress,createdAt': ['customers'],
  'platformId,customerId,createdAt': [
    'quotes',
    'transactions',
    'internal_accounts',
    'cards',
    'external_accounts',
    'agent_actions',
  ],
  'credentialId,createdAt': ['auth_methods'],
  'platformId,accountId,createdAt': ['auth_methods', 'auth_sessions'],
  'platformId,agentId,createdAt': ['agent_actions'],
};
function run(label, mode, jsonb = false) {
  const db = new Database(':memory:');
  db.exec(
    `CREATE TABLE docs (collection TEXT NOT NULL, id TEXT NOT NULL, body ${jsonb ? 'BLOB' : 'TEXT'} NOT NULL, PRIMARY KEY (collection, id)) WITHOUT ROWID;`,
  );
  const ex = (f) => `json_extract(body, '$.${f}')`;
  db.exec(
    `CREATE INDEX a ON docs (collection, ${ex('createdAt')}, id); CREATE INDEX b ON docs (collection, ${ex('platformId')}, ${ex('createdAt')}, id);`,
  );
  let i = 0;
  for (const f of idx) {
    if (mode === 'none') continue;
    const where =
      mode === 'partial' ? ` WHERE collection IN (${owners[f.join(',')].map((c) => `'${c}'`).join(',')})` : '';
    db.exec(`CREATE INDEX i${i++} ON docs (collection, ${f.map(ex).join(', ')}, id)${where}`);
  }
  const up = db.prepare(
    `INSERT INTO docs (collection, id, body) VALUES (?, ?, ${jsonb ? 'jsonb(?)' : '?'}) ON CONFLICT (collection, id) DO UPDATE SET body = excluded.body`,
  );
  const t = performance.now();
  db.transaction(() => {
    for (let k = 0; k < 2; k++) for (const r of rows) up.run(r.collection, r.id, r.body);
  })();
  const ms = performance.now() - t;
  console.log(label, ((ms * 1000) / (rows.length * 2)).toFixed(1), 'us/upsert');
}
run('full', 'full');
run('partial', 'partial');
run('none', 'none');
run('full jsonb', 'full', true);
run('partial jsonb', 'partial', true);
