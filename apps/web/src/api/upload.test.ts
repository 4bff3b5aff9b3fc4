import { afterEach, describe, expect, it, vi } from 'vitest';
import { uploadFile } from './upload.ts';
import { ApiError } from './client.ts';
import { useAuth } from '../stores/auth.ts';

/** A stand-in for the browser's XMLHttpRequest that answers what the test says. */
class FakeXhr {
  static last: FakeXhr;
  static answer: { status: number; body: unknown } = {
    status: 200,
    body: { code: 0, data: { fileId: 'f1' }, msg: 'ok' },
  };
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  statusText = '';
  responseText = '';
  timeout = 0;
  upload: { onprogress?: (event: { lengthComputable: boolean; loaded: number; total: number }) => void } = {};
  onload?: () => void;
  onerror?: () => void;
  ontimeout?: () => void;
  onabort?: () => void;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
    this.status = FakeXhr.answer.status;
    this.responseText = JSON.stringify(FakeXhr.answer.body);
    setTimeout(() => this.onload?.(), 0);
  }
  abort() {
    this.onabort?.();
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  useAuth.getState().clear();
});

describe('uploadFile', () => {
  it('posts multipart with the Bearer token, reports progress and unwraps the envelope', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    useAuth.getState().setSession('tok');
    FakeXhr.answer = { status: 200, body: { code: 0, data: { fileId: 'f1' }, msg: 'ok' } };
    const progress: number[] = [];
    const result = await uploadFile('/book/cover', new File(['x'], 'c.png'), {
      query: { bookCode: 'b1', scope: 'public' },
      onProgress: (n) => progress.push(n),
    });
    expect(result).toEqual({ fileId: 'f1' });
    expect(FakeXhr.last.method).toBe('POST');
    expect(FakeXhr.last.url).toBe('/api/book/cover?bookCode=b1&scope=public');
    expect(FakeXhr.last.headers.Authorization).toBe('Bearer tok');
    expect((FakeXhr.last.body as FormData).get('file')).toBeInstanceOf(File);
    expect(progress).toEqual([0.5]);
  });

  it('turns an error envelope into an ApiError with its key and details', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.answer = { status: 429, body: { code: 429, data: { key: 'uploadLimitReached', today: 20 }, msg: 'x' } };
    const error = await uploadFile('/book/upload', new File(['x'], 'a.pdf')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).key).toBe('uploadLimitReached');
    expect((error as ApiError).data?.today).toBe(20);
  });
});
