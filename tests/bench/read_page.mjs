// See read_page.html. window.readPage.time(mode) runs one part in a fresh worker (a fresh
// engine heap each time) and answers its timing.
const input = document.getElementById('file');

function time(mode) {
  const worker = new Worker(new URL('./read_worker.mjs', import.meta.url), { type: 'module' });
  return new Promise((resolve, reject) => {
    worker.addEventListener('message', (event) => {
      worker.terminate();
      if (event.data.error) reject(new Error(event.data.error));
      else resolve(event.data);
    });
    worker.addEventListener('error', (e) => {
      worker.terminate();
      reject(new Error(e.message));
    });
    worker.postMessage({ mode, file: input.files[0] });
  });
}

window.readPage = { time };
document.body.dataset.ready = 'true';
