/**
 * The dashboard page: self-contained, asks for an API token of the platform (kept in session
 * storage), then refreshes its overview every few seconds.
 */
export function dashboardPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Operations dashboard</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.5 system-ui,sans-serif;margin:0;background:#f4f6f8;color:#1b1f24}
header{background:#0b3d5c;color:#fff;padding:12px 24px}h1{margin:0;font-size:20px}
main{display:grid;grid-template-columns:repeat(auto-fit,minmax(280px,1fr));gap:16px;padding:16px 24px}
section{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:12px 16px}
h2{font-size:15px;margin:0 0 8px}.big{font-size:28px;font-weight:600}.ok{color:#1a7f37}.warn{color:#9a6700}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #eaeef2;padding:3px 6px;text-align:left;font-size:13px}
#events{grid-column:1/-1}code{font-size:12px}
#login{margin:16px 24px;padding:12px 16px;background:#fff;border:1px solid #d0d7de;border-radius:8px}
</style></head><body>
<header><h1>Operations dashboard</h1><small id="at"></small></header>
<form id="login" hidden><p>Sign in with an API token of the platform (kept for this browser tab only).</p>
<input name="tokenId" placeholder="ApiToken:…" size="50" required> <input name="secret" type="password" placeholder="client secret" size="50" required> <button>Show</button></form>
<main>
<section><h2>Event log</h2><div class="big" id="head">–</div><div>head position</div></section>
<section><h2>Projections</h2><div class="big" id="lag">–</div><div id="proj">events behind the log</div></section>
<section><h2>This platform</h2><table id="counts"></table></section>
<section><h2>Webhook deliveries</h2><table id="webhooks"></table></section>
<section><h2>Settlement balances</h2><table id="balances"></table></section>
<section id="events"><h2>Recent activity</h2><table id="recent"></table></section>
</main>
<script>
const esc=(s)=>String(s??'').replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));
const KEY='dashboard-credentials';
const form=document.getElementById('login');
function credentials(){return sessionStorage.getItem(KEY)}
form.addEventListener('submit',(e)=>{e.preventDefault();const id=form.elements.tokenId.value.trim(),secret=form.elements.secret.value.trim();sessionStorage.setItem(KEY,btoa(id+':'+secret));form.hidden=true;refresh();});
async function refresh(){
  const basic=credentials();
  if(!basic){form.hidden=false;return}
  try{
    const r=await fetch(location.origin+location.pathname.replace(/[/]?$/,'/overview'),{headers:{authorization:'Basic '+basic}});
    if(r.status===401){sessionStorage.removeItem(KEY);form.hidden=false;document.getElementById('at').textContent='those credentials were refused';return}
    if(!r.ok)throw new Error(r.status+' '+(await r.text()));
    const d=await r.json();
    document.getElementById('at').textContent='updated '+d.generatedAt;
    document.getElementById('head').textContent=d.eventLog.headPosition;
    const lag=document.getElementById('lag');lag.textContent=d.projections.lag;lag.className='big '+(d.projections.lag==='0'?'ok':'warn');
    document.getElementById('proj').textContent='events behind the log (projected to '+d.projections.position+')';
    document.getElementById('counts').innerHTML=Object.entries(d.counts).map(([k,v])=>'<tr><td>'+esc(k)+'</td><td>'+v+'</td></tr>').join('');
    document.getElementById('webhooks').innerHTML=Object.entries(d.webhookDeliveries).map(([k,v])=>'<tr><td>'+esc(k)+'</td><td class="'+((k==='DEAD'||k==='FAILED')&&v>0?'warn':'')+'">'+v+'</td></tr>').join('');
    document.getElementById('balances').innerHTML='<tr><th>currency</th><th>amount (smallest unit)</th></tr>'+d.settlementBalances.map(b=>'<tr><td>'+esc(b.currency)+'</td><td>'+b.amount+'</td></tr>').join('');
    document.getElementById('recent').innerHTML='<tr><th>#</th><th>type</th><th>stream</th><th>actor</th><th>at</th></tr>'+d.recentEvents.map(e=>'<tr><td>'+e.position+'</td><td>'+esc(e.type)+'</td><td><code>'+esc(e.stream)+'</code></td><td><code>'+esc(e.actor)+'</code></td><td>'+esc(e.recordedAt)+'</td></tr>').join('');
  }catch(e){document.getElementById('at').textContent='could not load: '+e.message}
}
refresh();setInterval(refresh,3000);
</script></body></html>`;
}
