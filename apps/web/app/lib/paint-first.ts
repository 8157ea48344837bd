import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * Paint first, hydrate after: two changes to the document React Router writes, made on its way out.
 *
 * 1. The module preloads leave the head. The page is server-rendered, so the first paint needs the
 *    document, the stylesheet and the page's first pictures, not the ~125 KB of React and route
 *    modules. Even at low priority the two dozen preloads share a slow mobile link with those
 *    pictures; so no script is fetched until the pictures are on screen. The starter (point 2)
 *    then adds the same preloads at once, so the module graph still loads in one parallel wave
 *    rather than import by import.
 * 2. The inline module script that starts the app (route modules, then hydration) is held, inert,
 *    until the page's first pictures are on screen, and then started. Left alone it runs whenever
 *    its imports arrive, which is often before the first paint: the browser then paints only after
 *    compiling and hydrating, and a shopper on a phone looks at a blank screen (or a page without
 *    its banner) for that time although the HTML was complete. The first pictures are those marked
 *    by FIRST_PAINT_IMAGE (first-paint-image.ts). At the first contentful paint the starter notes
 *    which of them are on screen (a third card may be below the fold on a phone) and waits until
 *    the browser has reported each as presented (Element Timing); with none on screen it starts at
 *    once. Browsers without those reports wait for the pictures to be decoded and two frames. A
 *    timer starts the app anyway after 1.5 s: a picture that is slow or broken, or a tab in the
 *    background that gets no frames. The shopper's first touch, click or key starts it at once.
 * 3. Links and forms work before the app runs (they are plain HTML); a `type="button"` button does
 *    nothing without React. A click on one before hydration is held (not lost): the starter keeps
 *    the last such button and stops the click there, and the app clicks it again once it has
 *    hydrated (held-click.ts, called by the root). A button with `popovertarget` (a category tab)
 *    works as plain HTML, so its click is not held: its overlay opens at once.
 *
 * React Router's `<Scripts>` has no option for any of this. The rewrite is exact-match on its output;
 * if a future version writes something else, the page passes through unchanged (and
 * paint-first.test.ts fails, saying so).
 */
const MODULEPRELOAD = /<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g;
const APP_SCRIPT = /<script nonce="([^"]*)" type="module" async="">/;
const HELD_TYPE = 'text/x-after-first-paint';

/**
 * Runs at parse time, at the end of the body: removes itself (React must not meet it when
 * hydrating), then waits as described above, then preloads the modules and starts the app.
 * Plain ES5, so any browser parses it.
 */
const starter = (preloads: string[]) =>
  `(function(){
  var me=document.currentScript,held=me.previousElementSibling,done=false,watching=[];
  var preloads=${JSON.stringify(preloads).replace(/</g, '\\u003c')};
  me.remove();
  function start(){
    if(done)return;done=true;
    watching.forEach(function(o){o.disconnect()});
    preloads.forEach(function(href){
      var l=document.createElement("link");l.rel="modulepreload";l.href=href;l.nonce=held.nonce;document.head.appendChild(l);
    });
    var s=document.createElement("script");s.type="module";s.nonce=held.nonce;s.textContent=held.textContent;
    held.replaceWith(s);
  }
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
  setTimeout(start,1500);
  document.addEventListener("pointerdown",start,true);
  document.addEventListener("keydown",start,true);
  var heldClick=null;
  function hold(e){
    var b=e.target&&e.target.closest&&e.target.closest("button[type=button]:not([popovertarget])");
    if(!b)return;
    heldClick=b;e.preventDefault();e.stopImmediatePropagation();start();
  }
  document.addEventListener("click",hold,true);
  window.__takeHeldClick=function(){
    document.removeEventListener("click",hold,true);
    document.removeEventListener("pointerdown",start,true);
    document.removeEventListener("keydown",start,true);
    var b=heldClick;heldClick=null;return b;
  };
})();`.replace(/\n\s*/g, '');

export function paintFirst(): Transform {
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
        out += `${take(open.index)}<script nonce="${nonce}" type="${HELD_TYPE}">${code}</script><script nonce="${nonce}">${starter(preloads)}</script>`;
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
