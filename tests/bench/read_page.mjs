// See read_page.html. window.readPage.time(mode) runs one part in a fresh worker (a fresh
// engine heap each time) and answers its timing. Just before the timed part it awaits
// window.beforeTimed when the benchmark exposed one (it takes the CPU count there).
const input = document.getElementById('file');

function time(mode) {
  const worker = new Worker(new URL('./read_worker.mjs', import.meta.url), { type: 'module' });
  return new Promise((resolve, reject) => {
    worker.addEventListener('message', async (event) => {
      if (event.data.timing) {
        try {
          await window.beforeTimed?.();
        } finally {
          worker.postMessage('go'); // a failed count must not leave the worker waiting
        }
        return;
      }
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
