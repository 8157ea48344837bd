import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * Paint first, hydrate after: two changes to the document React Router writes, made on its way out.
 *
 * 1. The module preloads leave the head. The page is server-rendered, so the first paint needs the
 *    document, the stylesheet and the page's first pictures, not the ~120 KB of React and route
 *    modules. Even at low priority the two dozen preloads share a slow mobile link with those
 *    pictures, so no script is fetched until the starter (point 2) starts the app. It then adds
 *    the same preloads at once, so the module graph still loads in one parallel wave rather than
 *    import by import.
 * 2. The inline module script that starts the app (route modules, then hydration) is held, inert,
 *    and started later (StartApp below says when). Left alone it runs whenever its imports arrive,
 *    which is often before the first paint: the browser then paints only after compiling and
 *    hydrating, and a shopper on a phone looks at a blank screen (or a page without its banner)
 *    for that time although the HTML was complete.
 *    - On shop pages it starts at the shopper's first sign of intent.
 *    - On the dashboard it starts once the first pictures are on screen. They are those marked by
 *      FIRST_PAINT_IMAGE (first-paint-image.ts). At the first contentful paint the starter notes
 *      which of them are on screen and waits until the browser has reported each as presented
 *      (Element Timing); with none on screen it starts at once. Browsers without those reports
 *      wait for the pictures to be decoded and two frames. A timer starts the app anyway after
 *      1.5 s (a slow or broken picture, a tab in the background that gets no frames), and so does
 *      the first touch or key.
 * 3. Links and forms work before the app runs (they are plain HTML); a `type="button"` button does
 *    nothing without React. A click on one before hydration is held (not lost): the starter stops
 *    the click there and keeps its button, and the app clicks the held buttons again, in order,
 *    once it has hydrated (held-click.ts, called by the root): "+" tapped three times adds three.
 *    Meanwhile a bar at the top of the page (`.app-starting`, app.css) says that the press was
 *    taken. It is the last child of the body, where React's hydration passes over a node it did not
 *    render. A button with `popovertarget` (a category tab) works as plain HTML, so its click is
 *    not held: its overlay opens at once.
 *
 * React Router's `<Scripts>` has no option for any of this. The rewrite is exact-match on its output;
 * if a future version writes something else, the page passes through unchanged (and
 * paint-first.test.ts fails, saying so).
 */
const MODULEPRELOAD = /<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g;
const APP_SCRIPT = /<script nonce="([^"]*)" type="module" async="">/;
const HELD_TYPE = 'text/x-after-first-paint';

/**
 * When the starter starts the app.
 * - `intent` (shop pages): at the shopper's first sign of using the page (a touch, a pointer that
 *   moves or presses, a key, focus, a wheel), and not before. Until then the page is
 *   plain HTML, which works as it is (point 3), and downloads no script but the starter: a visitor
 *   who only looks costs no JavaScript, and hydration's main-thread work never lands on the first
 *   paint. Decision 065 weighs this against the first interaction's wait.
 * - `first-paint` (the dashboard, where almost every control needs React): as soon as the first
 *   pictures are on screen (point 2), after 1.5 s at the latest, or at the first touch or key.
 */
export type StartApp = 'intent' | 'first-paint';

/**
 * What counts as intent; every one is listened for on the document, in the capture phase. Not
 * `scroll`: a scroll-snapping row scrolls by itself as the page lays out. The shopper's scrolls come
 * through a touch, a wheel, a key or the scroll bar (a pointer press), each listened for.
 * A `pointermove` counts only when the pointer moved (a movement other than 0, 0): Chromium also
 * sends one, trusted, when the page lays out under a pointer at rest (at 0, 0 in a window nobody
 * has pointed at yet), and that is the page moving, not the shopper.
 */
const INTENT = ['pointerdown', 'pointermove', 'touchstart', 'keydown', 'focusin', 'wheel'];
/** What starts the app at once on a dashboard page, before its first pictures are on screen. */
const FIRST_TOUCH = ['pointerdown', 'keydown'];

/**
 * Runs at parse time, at the end of the body: removes itself (React must not meet it when
 * hydrating), then waits as described above, then preloads the modules and starts the app.
 * Plain ES5, so any browser parses it.
 */
const starter = (preloads: string[], startApp: StartApp) =>
  `(function(){
  var me=document.currentScript,held=me.previousElementSibling,done=false,watching=[];
  var preloads=${JSON.stringify(preloads).replace(/</g, '\\u003c')};
  var triggers=${JSON.stringify(startApp === 'intent' ? INTENT : FIRST_TOUCH)};
  me.remove();
  function start(){
    if(done)return;done=true;
    watching.forEach(function(o){o.disconnect()});
    triggers.forEach(function(t){document.removeEventListener(t,intent,true)});
    preloads.forEach(function(href){
      var l=document.createElement("link");l.rel="modulepreload";l.href=href;l.nonce=held.nonce;document.head.appendChild(l);
    });
    var s=document.createElement("script");s.type="module";s.nonce=held.nonce;s.textContent=held.textContent;
    held.replaceWith(s);
  }
  function intent(e){if(e.type==="pointermove"&&!e.movementX&&!e.movementY)return;start()}
  triggers.forEach(function(t){document.addEventListener(t,intent,true)});
  ${startApp === 'intent' ? INTENT_ONLY : AFTER_FIRST_PAINT}
  var heldClicks=[],bar=null;
  function hold(e){
    var b=e.target&&e.target.closest&&e.target.closest("button[type=button]:not([popovertarget])");
    if(!b)return;
    heldClicks.push(b);e.preventDefault();e.stopImmediatePropagation();start();
    if(!bar){
      bar=document.createElement("div");bar.className="app-starting";bar.setAttribute("aria-hidden","true");
      bar.appendChild(document.createElement("div"));document.body.appendChild(bar);
    }
  }
  document.addEventListener("click",hold,true);
  window.__takeHeldClicks=function(){
    document.removeEventListener("click",hold,true);
    if(bar)bar.remove();
    var b=heldClicks;heldClicks=[];return b;
  };
})();`.replace(/\n\s*/g, '');

/**
 * Intent. Two things count as it already when the starter runs: a field focused (tapped while the
 * page streamed), and a notice the page says as it arrives (a saved form's answer, toast.tsx), whose
 * toast needs the app.
 */
const INTENT_ONLY = `var a=document.activeElement,n=document.querySelector("noscript[data-notices]");
  if((a&&a!==document.body&&a!==document.documentElement)||(n&&n.textContent))start();`;

/** First paint: the first pictures on screen presented, or the first contentful paint, or 1.5 s. */
const AFTER_FIRST_PAINT = `
  function soon(){setTimeout(start,0)}
  function watch(type,seen){var o=new PO(function(l){l.getEntries().forEach(seen)});o.observe({type:type,buffered:true});watching.push(o)}
  var pics=[].slice.call(document.querySelectorAll("img[elementtiming=first-paint]")),shown=[],wanted=null;
  var PO=window.PerformanceObserver,types=(PO&&PO.supportedEntryTypes)||[];
  function check(){if(wanted&&wanted.every(function(p){return shown.indexOf(p)>=0}))soon()}
  function onScreen(p){var r=p.getBoundingClientRect();return r.width>0&&r.bottom>0&&r.right>0&&r.top<innerHeight&&r.left<innerWidth}
  if(types.indexOf("element")>=0&&types.indexOf("paint")>=0){
    watch("element",function(e){shown.push(e.element);check()});
    watch("paint",function(e){if(e.name==="first-contentful-paint"&&!wanted){wanted=pics.filter(onScreen);check()}});
  }else{
    Promise.all(pics.map(function(i){return i.decode?i.decode().catch(function(){}):0})).then(function(){
      requestAnimationFrame(function(){requestAnimationFrame(soon)});
    });
  }
  setTimeout(start,1500);`;

export function paintFirst(startApp: StartApp): Transform {
  // A chunk may end inside a multi-byte character or inside a tag: decode across chunks, and hold
  // back the text from the last "<" until the tag is whole.
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let phase: 'head' | 'body' | 'done' = 'head';
  const preloads: string[] = [];

  function rewrite(final: boolean): string {
    let out = '';
    if (phase === 'head') {
      const end = pending.indexOf('</head>');
      if (end === -1) return final ? take(pending.length) : '';
      out += take(end).replace(MODULEPRELOAD, (_tag, href: string) => {
        preloads.push(href);
        return '';
      });
      phase = 'body';
    }
    if (phase === 'body') {
      const open = APP_SCRIPT.exec(pending);
      const close = open ? pending.indexOf('</script>', open.index) : -1;
      if (open && close !== -1) {
        const nonce = open[1] as string;
        const code = pending.slice(open.index + open[0].length, close);
        out += `${take(open.index)}<script nonce="${nonce}" type="${HELD_TYPE}">${code}</script><script nonce="${nonce}">${starter(preloads, startApp)}</script>`;
        take(close + '</script>'.length - open.index);
        phase = 'done';
      } else if (final) {
        out += take(pending.length);
      } else {
        // Pass on everything before a tag that may still be arriving.
        const keep = open ? open.index : pending.lastIndexOf('<');
        out += take(keep === -1 ? pending.length : keep);
      }
    }
    if (phase === 'done') out += take(pending.length);
    return out;
  }

  function take(n: number): string {
    const head = pending.slice(0, n);
    pending = pending.slice(n);
    return head;
  }

  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      // Still through the decoder once done: it may hold the first byte of a character.
      if (phase === 'done') return callback(null, decoder.write(chunk) || undefined);
      pending += decoder.write(chunk);
      const out = rewrite(false);
      callback(null, out || undefined);
    },
    flush(callback) {
      pending += decoder.end();
      const out = rewrite(true);
      callback(null, out || undefined);
    },
  });
}
