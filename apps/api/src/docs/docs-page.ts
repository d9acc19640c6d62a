/**
 * A self-contained HTML page (no external assets) that renders /openapi.json: endpoints grouped
 * by tag, with parameters, request body and responses, and the component schemas.
 */
export function docsPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Payments Platform API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24;background:#fafbfc}
header{background:#0b3d5c;color:#fff;padding:16px 32px}header h1{margin:0;font-size:22px}
main{padding:16px 32px;max-width:1100px}h2{border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:32px}
details{background:#fff;border:1px solid #d0d7de;border-radius:6px;margin:8px 0;padding:6px 12px}
summary{cursor:pointer;font-family:ui-monospace,monospace}.m{display:inline-block;min-width:64px;font-weight:700}
.get{color:#1a7f37}.post{color:#0969da}.patch{color:#9a6700}.delete{color:#cf222e}
pre{background:#f6f8fa;padding:8px;border-radius:4px;overflow:auto;font-size:13px}table{border-collapse:collapse}
td,th{border:1px solid #d0d7de;padding:2px 8px;text-align:left;font-size:13px}
</style></head><body><header><h1>Payments Platform API</h1><div id="sub"></div></header><main id="root">Loading…</main>
<script>
const esc=(s)=>String(s??'').replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));
fetch('openapi.json').then(r=>r.json()).then(doc=>{
  document.getElementById('sub').textContent=doc.info.description+' Version '+doc.info.version+'.';
  const byTag={};
  for(const [path,ops] of Object.entries(doc.paths))
    for(const [verb,op] of Object.entries(ops))(byTag[op.tags[0]]??=[]).push({path,verb,op});
  let html='';
  for(const tag of Object.keys(byTag).sort()){
    html+='<h2>'+esc(tag)+'</h2>';
    for(const {path,verb,op} of byTag[tag]){
      html+='<details><summary><span class="m '+verb+'">'+verb.toUpperCase()+'</span>'+esc(path)+
        ' — '+esc(op.summary)+'</summary>';
      if(op.description)html+='<p>'+esc(op.description)+'</p>';
      if(op.parameters)html+='<table><tr><th>parameter</th><th>in</th><th>required</th><th>schema</th></tr>'+
        op.parameters.map(p=>'<tr><td>'+esc(p.name)+'</td><td>'+p.in+'</td><td>'+(p.required?'yes':'')+
          '</td><td><code>'+esc(JSON.stringify(p.schema))+'</code></td></tr>').join('')+'</table>';
      if(op.requestBody)
        html+='<p>Body</p><pre>'+esc(JSON.stringify(op.requestBody.content['application/json'].schema,null,1))+'</pre>';
      html+='<p>Responses</p><table>'+Object.entries(op.responses).map(([s,r])=>'<tr><td>'+s+'</td><td>'+
        esc(r.description)+'</td><td><code>'+esc(r.content?JSON.stringify(r.content['application/json'].schema):'')+
        '</code></td></tr>').join('')+'</table></details>';
    }
  }
  html+='<h2>Schemas</h2>'+Object.entries(doc.components.schemas).map(([n,s])=>'<details id="'+esc(n)+
    '"><summary>'+esc(n)+'</summary><pre>'+esc(JSON.stringify(s,null,1))+'</pre></details>').join('');
  document.getElementById('root').innerHTML=html;
}).catch(e=>{document.getElementById('root').textContent='Could not load openapi.json: '+e});
</script></body></html>`;
}
