/**
 * Stand-ins for the platform features the pages use that some browsers of the support policy lack
 * (the `browserslist` of package.json: Safari and iOS from 16.4; decision 016). Each is plain ES5,
 * inlined in the scripts every page already has, and does nothing where the browser has the feature.
 */

/**
 * Set on `<html>` by the head's inline script, so CSS can tell a page whose scripts run from one
 * whose scripts are off (`scripting:` and `no-scripting:` in app.css; Safari 16 has no
 * `@media (scripting)`): with scripts off, the header's menu is a link to the footer's pages.
 */
export const SCRIPTING_ATTRIBUTE = 'data-scripting';

/** The head's first statement (before the theme script), so the right menu control is the one painted. */
export const SCRIPTING_MARK = `document.documentElement.setAttribute('${SCRIPTING_ATTRIBUTE}','');`;

/**
 * Invoker Commands (`command`/`commandfor` on a button; Safari before 26.2, Chrome before 135,
 * Firefox before 144) for the dialog commands, and `closedby="any"` (a click on the backdrop closes
 * the dialog; not in Safari). Escape closes a modal dialog natively everywhere. The browser gives
 * focus back to what had it when the dialog opened; Safari does not focus a button it clicks, so
 * when nothing had focus it goes back to the button that opened the dialog.
 */
export const DIALOG_FALLBACK = `(function(){var d=document,B=window.HTMLButtonElement,D=window.HTMLDialogElement;if(!B||!D)return;
if(!('commandForElement' in B.prototype))d.addEventListener('click',function(e){var b=e.target&&e.target.closest&&e.target.closest('button[commandfor]');if(!b||b.disabled)return;
var t=d.getElementById(b.getAttribute('commandfor')),c=b.getAttribute('command');if(!(t instanceof D))return;
if(c==='show-modal'&&!t.open){t.showModal();t.addEventListener('close',function(){var a=d.activeElement;if(!a||a===d.body)b.focus()},{once:true})}
else if((c==='close'||c==='request-close')&&t.open)t.close()});
if(!('closedBy' in D.prototype))d.addEventListener('click',function(e){var t=e.target;if(!(t instanceof D)||!t.open||t.getAttribute('closedby')!=='any')return;
var r=t.getBoundingClientRect();if(e.clientX<r.left||e.clientX>r.right||e.clientY<r.top||e.clientY>r.bottom)t.close()})})();`;
