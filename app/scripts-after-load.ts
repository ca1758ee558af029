/**
 * The events that count as the visitor's first interaction with a page whose scripts wait for one:
 * a pointer moved or pressed, a touch, a key, focus moving into the page, a scroll. Listened to on
 * the window, in the capture phase, so no element can stop them on the way.
 */
export const INTERACTION_EVENTS = [
  'pointermove',
  'pointerdown',
  'touchstart',
  'keydown',
  'focusin',
  'scroll',
  'wheel',
] as const;

/**
 * Starts a page's scripts once the page has loaded (its HTML, stylesheet and images) or, for a page
 * whose route asks for it, once the page has loaded and the visitor has first done something on it
 * (`INTERACTION_EVENTS`): the entry module runs from a copy with its type, nonce and code, put in
 * the head, which React leaves alone when it hydrates; then, in a task of its own (each preload
 * costs the main thread a little), the module preloads get their `rel` back, so the deeper chunks
 * are fetched without waiting for the modules that import them, and the page's files of messages
 * (named by the root layout's `<meta name="messages">`) are preloaded for the entry to read. `scripts-after-load.server.ts`
 * holds both back. Plain ES5, rendered inline before the page's scripts.
 */
function scriptsStart(onInteraction: boolean): string {
  const wait = onInteraction
    ? `var e=${JSON.stringify(INTERACTION_EVENTS)},o={capture:true,passive:true};
function go(){for(var i=0;i<e.length;i++)w.removeEventListener(e[i],go,o);loaded()}
for(var i=0;i<e.length;i++)w.addEventListener(e[i],go,o)`
    : 'loaded()';
  return `(function(){var d=document,w=window;
function run(){var s=d.querySelectorAll('script[data-type="module"]');for(var j=0;j<s.length;j++){var m=d.createElement('script');m.type='module';m.nonce=s[j].nonce;m.text=s[j].text;s[j].removeAttribute('data-type');d.head.appendChild(m)}setTimeout(preload,0)}
function preload(){var l=d.querySelectorAll('link[data-rel="modulepreload"]');for(var i=0;i<l.length;i++){l[i].rel='modulepreload';l[i].removeAttribute('data-rel')}
var m=d.querySelector('meta[name=messages]');if(m)m.content.split(' ').forEach(function(h){var k=d.createElement('link');k.rel='preload';k.as='fetch';k.crossOrigin='';k.href=h;d.head.appendChild(k)})}
function loaded(){if(d.readyState==='complete')setTimeout(run,0);else w.addEventListener('load',function(){setTimeout(run,0)})}
${wait}})();`;
}

/** For a page whose scripts start once it has loaded: every page with scripts but those below. */
export const SCRIPTS_AFTER_LOAD = scriptsStart(false);

/**
 * For a page whose scripts start at the visitor's first interaction, once it has loaded (a route
 * whose handle says `scripts: 'on-interaction'`; decision 012): a page mostly read, where what
 * needs scripts (a form's in-place answer, a live search) follows an interaction anyway.
 */
export const SCRIPTS_ON_INTERACTION = scriptsStart(true);
