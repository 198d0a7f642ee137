// The portal's one page: it lists the webhooks, registers one, lists the documents and uploads a
// file with progress, through the packed estatekit with no init() call and no Angular
// configuration for it. The service's address is the page's `?service=` parameter (the server
// render reads it from the request). On the server the render waits for the calls, and the page
// shows what they gave; the browser then hydrates the page and makes the calls again, through the
// browser entry: the content must stay, with `data-result` set for the test.
import { Component, PLATFORM_ID, PendingTasks, REQUEST, inject, signal } from '@angular/core';
import { isPlatformBrowser } from '@angular/common';
import { Client, isApiError } from 'estatekit';

interface Result {
  ok: boolean;
  where: string;
  webhooks?: string[];
  registered?: string;
  documents?: number;
  upload?: { id: string; size: number; reports: [number, number][] };
  kind?: string;
  message?: string;
}

@Component({
  selector: 'app-root',
  template: `<h1>Webhooks</h1>
    <output id="out">{{ text() }}</output>`,
})
export class App {
  protected readonly text = signal('loading…');

  constructor() {
    const browser = isPlatformBrowser(inject(PLATFORM_ID));
    const href = browser ? location.href : (inject(REQUEST)?.url ?? 'http://localhost/');
    const service = new URL(href).searchParams.get('service') ?? '';
    const where = browser ? 'browser' : 'server';
    // The server render waits for this task; the browser's does not need to.
    const done = inject(PendingTasks).add();
    run(service, where).then(
      (result) => this.show(result, browser),
      (e) => this.show({ ok: false, where, kind: isApiError(e) ? e.kind : undefined, message: String(e?.message ?? e) }, browser),
    ).finally(done);
  }

  private show(result: Result, browser: boolean) {
    this.text.set(JSON.stringify(result));
    if (browser) document.body.dataset['result'] = JSON.stringify(result);
  }
}

async function run(baseUrl: string, where: string): Promise<Result> {
  const client = new Client({ baseUrl, token: 'dev-token' });
  await client.listWebhooks();
  const registered = await client.registerWebhook({ type: 'UNIT_UPDATED', url: `http://127.0.0.1:9/angular-${where}` });
  const webhooks = (await client.listWebhooks()).map((w) => w.id);
  const documents = (await client.listDocuments({ take: 20 })).length;
  if (where === 'server') return { ok: true, where, webhooks, registered, documents };
  const file = new Blob(['estatekit consumer upload\n'], { type: 'text/plain' });
  const reports: [number, number][] = [];
  const record = await client.uploadDocument(
    { file, resourcePath: 'units/consumer', name: 'consumer.txt' },
    { onProgress: ({ loaded, total }) => reports.push([loaded, total]) },
  );
  return { ok: true, where, webhooks, registered, documents, upload: { id: record.id, size: file.size, reports } };
}
