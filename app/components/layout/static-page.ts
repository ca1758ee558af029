import { useContext } from 'react';
import { UNSAFE_DataRouterDataContext, useMatches, useRouteLoaderData } from 'react-router';
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE } from '../../shell';
import { ANALYTICS_DELAY_MS } from '../feedback/analytics';
import { THEME_KEY } from './theme';

/**
 * A route that needs no interaction beyond links says `scripts: false` in its `handle`: its page is
 * sent as plain HTML and CSS, without the framework's scripts (decision 012, addendum). A page
 * mostly read, whose scripts only serve what follows an interaction, says `'on-interaction'`: its
 * scripts start at the visitor's first interaction instead of once it has loaded.
 */
export interface ScriptsHandle {
  scripts?: boolean | 'on-interaction';
}

/**
 * Whether this page is sent without the framework's scripts: one of its routes asks for it and no
 * route failed (an error page keeps its scripts, as every error page does). In the browser the
 * answer is always no: whatever renders there has hydrated, including a page reached by a
 * client-side navigation from a hydrated one, which keeps its scripts and scroll restoration.
 */
export function useStaticPage(): boolean {
  const asks = useRoutesAsk();
  const data = useContext(UNSAFE_DataRouterDataContext);
  if (typeof document !== 'undefined') return false;
  if (data?.errors && Object.keys(data.errors).length > 0) return false;
  return asks(false);
}

/** Whether one of the page's routes says `scripts: value` in its handle. */
function useRoutesAsk(): (value: ScriptsHandle['scripts']) => boolean {
  const matches = useMatches();
  return (value) => matches.some((match) => (match.handle as ScriptsHandle | undefined)?.scripts === value);
}

/**
 * Whether this page's scripts wait for the visitor's first interaction (`scripts: 'on-interaction'`
 * in one of its routes' handles). Not when the page carries a flash message (after signing out, say):
 * only React shows it, so the scripts start once the page has loaded. Decided where the server
 * renders the document, like the above: in the browser the scripts have run, and the answer is no.
 */
export function useScriptsOnInteraction(): boolean {
  const asks = useRoutesAsk();
  const shell = useRouteLoaderData('routes/locale-layout') as { flash?: unknown } | undefined;
  if (typeof document !== 'undefined' || shell?.flash) return false;
  return asks('on-interaction');
}

/**
 * With a tag manager on the page, the document's page view, as the router pushes one after each
 * route change (`RouteAnalytics` leaves the document's first location to this); `w` and `d` are the
 * scripts' own.
 */
const PAGE_VIEW = `if(w.dataLayer)setTimeout(function(){w.dataLayer.push({event:'pageview',page_path:location.pathname+location.search,page_title:d.title,language:location.pathname.split('/')[1]})},${ANALYTICS_DELAY_MS})`;

/**
 * The theme toggle's functions and the language links' memory, shared by the two scripts below
 * (`d` and `h` are theirs): `remember(t)` sets the language cookie when `t` is in a language link.
 */
const THEME_TOGGLE = `function dark(){return h.classList.contains('dark')}
function sync(){var k=dark(),b=d.querySelectorAll('[data-theme-toggle]');for(var i=0;i<b.length;i++){b[i].setAttribute('aria-pressed',k?'true':'false');b[i].title=b[i].getAttribute(k?'data-title-light':'data-title-dark')||''}}
function apply(k){h.classList.toggle('dark',k);h.style.colorScheme=k?'dark':'light';sync()}
function stored(){try{return localStorage.getItem('${THEME_KEY}')}catch(e){return null}}
function toggle(){var k=!dark();apply(k);try{localStorage.setItem('${THEME_KEY}',k?'dark':'light')}catch(x){}}
function remember(t){var l=t.closest('[data-remember-locale]');if(l)d.cookie='${LOCALE_COOKIE}='+l.getAttribute('data-remember-locale')+'; Path=/; Max-Age=${LOCALE_COOKIE_MAX_AGE}; SameSite=Lax'}`;

/**
 * What a page without the framework's scripts still needs, in plain ES5 at the end of its body:
 * - the theme toggle (`data-theme-toggle`) switches the `dark` class and colour scheme, remembers
 *   the choice, and keeps its pressed state and title (`data-title-dark`, `data-title-light`) true;
 *   until the visitor chooses, the theme follows the system's;
 * - the back-to-top link (`data-back-to-top`) shows past half a window, and returns to the top
 *   (smoothly unless reduced motion is asked for) with keyboard focus there;
 * - a language link (`data-remember-locale`) remembers the language, as the hydrated selector does;
 * - with a tag manager on the page, the page view is pushed as the router would after a route change.
 * The drawer (`command`/`commandfor` on a dialog) and the use-case menu (`details`) need none of it;
 * where a browser lacks Invoker Commands, `DIALOG_FALLBACK` (platform-fallbacks.ts) follows this script.
 */
export const STATIC_PAGE_SCRIPT = `(function(){var d=document,h=d.documentElement,w=window;
${THEME_TOGGLE}
var back=d.querySelector('[data-back-to-top]');
function scrolled(){if(back)back.hidden=!(w.scrollY>w.innerHeight/2)}
sync();scrolled();
w.addEventListener('scroll',scrolled,{passive:true});w.addEventListener('resize',scrolled,{passive:true});
var m=w.matchMedia&&w.matchMedia('(prefers-color-scheme: dark)');
if(m&&m.addEventListener)m.addEventListener('change',function(e){if(!stored())apply(e.matches)});
d.addEventListener('click',function(e){var t=e.target;if(!t||!t.closest)return;
if(t.closest('[data-theme-toggle]')){toggle();return}
var a=t.closest('[data-back-to-top] a');if(a){e.preventDefault();var r=w.matchMedia&&w.matchMedia('(prefers-reduced-motion: reduce)').matches;w.scrollTo({top:0,behavior:r?'auto':'smooth'});var f=d.getElementById('top');if(f)f.focus({preventScroll:true});return}
remember(t)});
${PAGE_VIEW}})();`;

/**
 * Set on a click's native event once the script before hydration has switched the theme for it:
 * React may still handle the same click (replayed after hydration), and must not switch it back.
 */
export const THEME_TOGGLED = 'tillpointThemeToggled';

/** Set on `<html>` by the root layout once React has hydrated the page. */
export const HYDRATED_ATTRIBUTE = 'data-hydrated';

/**
 * On a page with scripts, the theme toggle and the language links' memory work before they have
 * run (they start once the page has loaded, or at the first interaction: decision 012): until the
 * root layout marks the page hydrated, a click on the toggle switches the theme here and a language
 * link sets the cookie, the toggle's pressed state and title say the theme shown, and the theme
 * follows the system's until the visitor chooses; React's toggle then reads the theme from the
 * page, as it always does. The document's page view is pushed from here, whenever the page hydrates.
 */
export const BEFORE_HYDRATION_SCRIPT = `(function(){var d=document,h=d.documentElement,w=window;
${THEME_TOGGLE}
function off(){return h.hasAttribute('${HYDRATED_ATTRIBUTE}')}
if(!off())sync();
d.addEventListener('click',function(e){var t=e.target;if(off()||!t||!t.closest)return;if(t.closest('[data-theme-toggle]')){toggle();e.${THEME_TOGGLED}=true}else remember(t)});
var m=w.matchMedia&&w.matchMedia('(prefers-color-scheme: dark)');
if(m&&m.addEventListener)m.addEventListener('change',function(e){if(!off()&&!stored())apply(e.matches)});
${PAGE_VIEW}})();`;
