/**
 * Starts a page's scripts once the page has loaded (its HTML, stylesheet and images): the module
 * preloads get their `rel` back and the entry module runs from a copy with its type, nonce and
 * code. `scripts-after-load.server.ts` holds them back; the copy goes into the head, which React
 * leaves alone when it hydrates. Plain ES5, rendered inline before the page's scripts.
 */
export const SCRIPTS_AFTER_LOAD = `(function(){var d=document;function start(){
var l=d.querySelectorAll('link[data-rel="modulepreload"]');for(var i=0;i<l.length;i++){l[i].rel='modulepreload';l[i].removeAttribute('data-rel')}
var s=d.querySelectorAll('script[data-type="module"]');for(var j=0;j<s.length;j++){var m=d.createElement('script');m.type='module';m.nonce=s[j].nonce;m.text=s[j].text;s[j].removeAttribute('data-type');d.head.appendChild(m)}}
if(d.readyState==='complete')setTimeout(start,0);else addEventListener('load',function(){setTimeout(start,0)})})();`;
