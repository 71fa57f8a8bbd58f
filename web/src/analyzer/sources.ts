// web/src/analyzer — where a trace comes from on the landing area: the file picker, a file
// dropped anywhere on the analyzer, "Try the sample trace" and "Open from URL". Each ends in
// the analyzer's open(); this module only wires the controls.

export interface SourceParts {
  /** The analyzer's host element: a drop anywhere on it opens the file. */
  host: HTMLElement;
  drop: HTMLElement;
  fileInput: HTMLInputElement;
  choose: HTMLElement;
  sampleButton: HTMLButtonElement;
  urlForm: HTMLFormElement;
  urlInput: HTMLInputElement;
}

export interface SourceHooks {
  /** Opens a File/Blob or a URL (failures are the caller's to show: it catches them). */
  open(source: Blob | string, name?: string): void;
  /** Shows a line of status (not an error). */
  status(text: string): void;
  onError(e: unknown): void;
  sampleUrl: string | undefined;
  /** Keep an opened URL in the page's address (?url=), for the full-page app. */
  syncHash: boolean;
  /** Listeners on the host end with the analyzer (its AbortSignal). */
  outside: AddEventListenerOptions;
}

/** A trace's name from its URL: the last path segment, decoded, else the host. */
export function nameOfUrl(url: URL): string {
  const last = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last) || url.host;
  } catch {
    return last || url.host; // a malformed %-escape: the name as written
  }
}

async function openSample(url: string, hooks: SourceHooks): Promise<void> {
  hooks.status('Downloading the sample trace…');
  const absolute = new URL(url, document.baseURI);
  const response = await fetch(absolute);
  if (!response.ok) throw new Error(`cannot fetch the sample trace: HTTP ${response.status}`);
  hooks.open(await response.blob(), nameOfUrl(absolute));
}

export function wireSources(parts: SourceParts, hooks: SourceHooks): void {
  const { host, drop, fileInput } = parts;
  fileInput.addEventListener('change', () => {
    const file = fileInput.files?.[0];
    if (file !== undefined) hooks.open(file);
    fileInput.value = '';
  });
  parts.choose.addEventListener('click', () => fileInput.click());
  const sampleUrl = hooks.sampleUrl;
  parts.sampleButton.hidden = sampleUrl === undefined;
  if (sampleUrl !== undefined) parts.sampleButton.addEventListener('click', () => void openSample(sampleUrl, hooks).catch(hooks.onError));
  parts.urlForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const url = parts.urlInput.value.trim();
    if (url === '') return;
    if (hooks.syncHash) {
      const search = new URLSearchParams(location.search);
      search.set('url', url);
      history.replaceState(null, '', `?${search.toString()}${location.hash}`);
    }
    hooks.open(url);
  });
  // A file dropped anywhere on the analyzer opens; the drop zone shows it.
  host.addEventListener(
    'dragover',
    (e) => {
      e.preventDefault();
      drop.classList.add('over');
    },
    hooks.outside,
  );
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  host.addEventListener(
    'drop',
    (e) => {
      e.preventDefault();
      drop.classList.remove('over');
      const file = e.dataTransfer?.files[0];
      if (file !== undefined) hooks.open(file);
    },
    hooks.outside,
  );
  drop.addEventListener('keydown', (e) => {
    if (e.target === drop && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      fileInput.click();
    }
  });
}
