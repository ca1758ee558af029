/**
 * Starts a page's scripts once the page has loaded (its HTML, stylesheet and images): the entry
 * module runs from a copy with its type, nonce and code, put in the head, which React leaves alone
 * when it hydrates; then, in a task of its own (each preload costs the main thread a little), the
 * module preloads get their `rel` back, so the deeper chunks are fetched without waiting for the
 * modules that import them. `scripts-after-load.server.ts` holds both back. Plain ES5, rendered
 * inline before the page's scripts.
 */
export const SCRIPTS_AFTER_LOAD = `(function(){var d=document;
function run(){var s=d.querySelectorAll('script[data-type="module"]');for(var j=0;j<s.length;j++){var m=d.createElement('script');m.type='module';m.nonce=s[j].nonce;m.text=s[j].text;s[j].removeAttribute('data-type');d.head.appendChild(m)}setTimeout(preload,0)}
function preload(){var l=d.querySelectorAll('link[data-rel="modulepreload"]');for(var i=0;i<l.length;i++){l[i].rel='modulepreload';l[i].removeAttribute('data-rel')}}
if(d.readyState==='complete')setTimeout(run,0);else addEventListener('load',function(){setTimeout(run,0)})})();`;
