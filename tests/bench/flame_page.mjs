// Page side of the flame-graph benchmark and browser check (see flame_page.html). The view
// module comes from ?view= (default: the built site's), so that an older flame_view.js can
// be measured the same way.
const params = new URLSearchParams(location.search);
const { FlameGraph } = await import(params.get('view') ?? '/build/site/views/flame_view.js');
const { SandwichView } = await import('/build/site/views/sandwich_view.js');
const { openTrace } = await import('/dist/index.js');
const byId = (id) => document.getElementById(id);

const canvas = byId('canvas');
const flame = new FlameGraph(canvas, byId('tooltip'), byId('breadcrumb'), byId('search-result'));
const sandwich = new SandwichView(byId('sandwich'));
/** Functions the sandwich view reported as picked (onPick), in order. */
const picks = [];
sandwich.onPick = (name) => picks.push(name);
let trace = null;

/** Pixel readback of one pixel: makes the canvas rasterize what was drawn, so timings include it. */
const settle = () => canvas.getContext('2d').getImageData(0, 0, 1, 1);

/** Moves the pointer to a css point of the canvas, as a user would (a mousemove), and runs the
 *  view's pending animation-frame work at once (flush(), when the view has one). */
function hover(x, y) {
  const box = canvas.getBoundingClientRect();
  canvas.dispatchEvent(new MouseEvent('mousemove', { clientX: box.left + x, clientY: box.top + y, bubbles: true }));
  flame.flush?.();
}

function click(x, y) {
  const box = canvas.getBoundingClientRect();
  const init = { clientX: box.left + x, clientY: box.top + y, bubbles: true };
  canvas.dispatchEvent(new MouseEvent('click', init));
}

window.flamePage = {
  flame,
  canvas,
  sandwich,
  picks,
  hover,
  click,
  settle,
  async open(url, query) {
    trace?.close();
    trace = await openTrace(url);
    const data = await trace.flameGraph(query);
    return { data, topFunctions: await trace.topFunctions(query, 1000) };
  },
  trace: () => trace,
};
byId('search').addEventListener('input', (e) => flame.search(e.target.value));
document.body.dataset.ready = 'true';
